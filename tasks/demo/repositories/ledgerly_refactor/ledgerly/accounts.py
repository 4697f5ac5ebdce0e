"""Chart of accounts.

Account codes follow the usual four-digit scheme: 1xxx assets, 2xxx
liabilities, 3xxx equity, 4xxx income, 5xxx-7xxx expenses.
"""

from dataclasses import dataclass, field

KINDS = ("asset", "liability", "equity", "income", "expense")

# Which side increases the balance of an account of each kind.
NORMAL_BALANCE = {
    "asset": "debit",
    "expense": "debit",
    "liability": "credit",
    "equity": "credit",
    "income": "credit",
}


class AccountError(LookupError):
    """Unknown account code, duplicate code or invalid kind."""


@dataclass
class Account:
    code: str
    name: str
    kind: str
    tags: list = field(default_factory=list)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise AccountError("unknown account kind %r for %s" % (self.kind, self.code))

    @property
    def normal_balance(self):
        return NORMAL_BALANCE[self.kind]

    def label(self):
        return "%s %s" % (self.code, self.name)


def kind_for_code(code):
    """Guess the kind of an account from the first digit of its code."""
    first = str(code)[:1]
    return {
        "1": "asset",
        "2": "liability",
        "3": "equity",
        "4": "income",
    }.get(first, "expense")


class ChartOfAccounts:
    """An ordered collection of :class:`Account` keyed by code."""

    def __init__(self, accounts=()):
        self._accounts = {}
        for account in accounts:
            self.add(account)

    def add(self, account):
        if account.code in self._accounts:
            raise AccountError("duplicate account code %s" % account.code)
        self._accounts[account.code] = account
        return account

    def get(self, code):
        try:
            return self._accounts[str(code)]
        except KeyError:
            raise AccountError("no account %s" % code) from None

    def ensure(self, code, name=None):
        """Return the account, creating it with a guessed kind if missing."""
        code = str(code)
        if code not in self._accounts:
            self.add(Account(code, name or "Account %s" % code, kind_for_code(code)))
        return self._accounts[code]

    def find_by_prefix(self, prefix):
        return [a for c, a in sorted(self._accounts.items()) if c.startswith(prefix)]

    def __iter__(self):
        return iter(sorted(self._accounts.values(), key=lambda a: a.code))

    def __len__(self):
        return len(self._accounts)

    def __contains__(self, code):
        return str(code) in self._accounts


def default_chart():
    """The small chart new ledgers start with."""
    return ChartOfAccounts(
        [
            Account("1000", "Cash", "asset"),
            Account("1200", "Bank", "asset"),
            Account("1400", "Inventory", "asset"),
            Account("2000", "Accounts payable", "liability"),
            Account("2100", "VAT payable", "liability"),
            Account("3000", "Owner's equity", "equity"),
            Account("4000", "Sales", "income"),
            Account("5000", "Cost of goods sold", "expense"),
            Account("6100", "Rent", "expense"),
            Account("6200", "Bank fees", "expense"),
        ]
    )
