from ledgerly.cli import build_parser, main


def test_parser_knows_every_command():
    parser = build_parser()
    for argv in (["balance"], ["stock", "list"], ["export", "--format", "json"]):
        assert parser.parse_args(argv).command == argv[0]


def test_add_and_balance(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["add", "2024-03-01", "Coffee beans", "23,90", "--debit", "5000", "--credit", "1000"]) == 0
    assert main(["balance"]) == 0
    out = capsys.readouterr().out
    assert "Coffee beans" in out
    assert "\u20ac23.90" in out


def test_stock_commands(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["stock", "receive", "ab 12", "5"]) == 0
    assert main(["stock", "issue", "AB-12", "2"]) == 0
    assert main(["stock", "list"]) == 0
    assert "AB-12" in capsys.readouterr().out
