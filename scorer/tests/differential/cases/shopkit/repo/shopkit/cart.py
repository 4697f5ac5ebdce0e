import logging
from dataclasses import dataclass, field
from typing import List, Optional

from shopkit.pricing import compute_total
from shopkit.utils.money import format_money

logger = logging.getLogger(__name__)

MAX_ITEMS = 100


@dataclass
class CartItem:
    sku: str
    quantity: int = 1
    price: float = 0.0
    tags: List[str] = field(default_factory=list)

    def subtotal(self):
        return self.quantity * self.price


class CartError(Exception):
    pass


class Cart:
    def __init__(self, owner, items=None, currency="EUR"):
        self.owner = owner
        self.items = list(items or [])
        self.currency = currency

    def add(self, item, log=0):
        if len(self.items) >= MAX_ITEMS:
            raise CartError("cart is full")
        if log:
            logger.info("adding %s", item.sku)
        self.items.append(item)

    def remove(self, sku):
        for i, item in enumerate(self.items):
            if item.sku == sku:
                del self.items[i]
                return item
        raise CartError(f"no item {sku!r}")

    def total(self, discount: Optional[int] = None):
        return compute_total(self.items, discount=discount)

    def describe(self):
        def line(item):
            return f"{item.sku} x{item.quantity}"
        return ", ".join(line(i) for i in self.items)

    def render(self):
        return format_money(self.total(), self.currency)

    async def sync(self, client):
        await client.push(self.items)


def load(owner, rows):
    cart = Cart(owner)
    for row in rows:
        cart.add(CartItem(**row))
    return cart
