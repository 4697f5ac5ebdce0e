def with_bom():
    return "bom"
