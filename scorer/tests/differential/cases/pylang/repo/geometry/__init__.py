from geometry.shapes import Circle, Square
