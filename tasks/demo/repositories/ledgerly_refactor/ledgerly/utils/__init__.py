"""Small helpers shared by the rest of ledgerly (no ledger logic here)."""
