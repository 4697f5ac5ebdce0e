"""shopkit: a tiny shop library used by refscore's differential fixtures."""
from shopkit.cart import Cart, CartItem
from shopkit.pricing import apply_discount, compute_total

__all__ = ["Cart", "CartItem", "apply_discount", "compute_total"]
__version__ = "1.4.2"
