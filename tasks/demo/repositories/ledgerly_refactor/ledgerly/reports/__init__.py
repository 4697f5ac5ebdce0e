"""Reports: trial balance, stock summary and exports."""
