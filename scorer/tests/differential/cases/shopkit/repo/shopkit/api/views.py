from shopkit.api.handlers import handle_error, NotFound
from shopkit.cart import Cart
import shopkit.utils.text as text_utils


def get_cart(request, storage):
    cart = storage.get(request.user)
    if cart is None:
        raise NotFound("cart")
    return cart


def cart_summary(request, storage):
    try:
        cart = get_cart(request, storage)
    except NotFound as exc:
        return handle_error(exc)
    return {"owner": cart.owner, "summary": text_utils.normalize(cart.describe())}


def list_carts(storage, *owners, **filters):
    result = []
    for owner in owners:
        cart = storage.get(owner)
        if cart is not None and all(getattr(cart, k) == v for k, v in filters.items()):
            result.append(cart)
    return result


class CartView:
    methods = ["GET", "POST"]

    def dispatch(self, request):
        if request.method not in self.methods:
            return handle_error(NotFound(request.method))
        handler = getattr(self, request.method.lower())
        return handler(request)

    def get(self, request):
        return cart_summary(request, request.storage)

    def post(self, request):
        body = (lambda r: r.body)(request)
        return Cart(request.user, body)
