import math


class Shape:
    sides = 0

    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"{type(self).__name__} with {self.sides} sides"


class Circle(Shape):
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return math.pi * self.radius ** 2


class Square(Shape):
    sides = 4

    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side
