file_mapping = {
    '../tests/ledgerly_refactor/rename-parse-amount-test.py': '../problems/base_problems/ledgerly_refactor/rename-parse-amount-task.txt',
    '../tests/ledgerly_refactor/format-table-to-text-test.py': '../problems/base_problems/ledgerly_refactor/move-format-table-task.txt',
    '../tests/ledgerly_refactor/add-log-parameter-post-entry-test.py': '../problems/base_problems/ledgerly_refactor/add-log-parameter-post-entry-task.txt',
    '../tests/ledgerly_refactor/stock-ledger-class-test.py': '../problems/base_problems/ledgerly_refactor/stock-ledger-class-task.txt',
    '../tests/ledgerly_refactor/split-loaders.py': '../problems/base_problems/ledgerly_refactor/split-storage-loaders-task.txt',
    '../tests/ledgerly_refactor/normalize-sku-helper.py': '../problems/base_problems/ledgerly_refactor/extract-normalize-sku-task.txt',
    '../tests/ledgerly_refactor/combine-currency-into-money-test.py': '../problems/base_problems/ledgerly_refactor/combine-currency-into-money-task.txt',
    '../tests/tinyfeed_refactor/rename-feed-item.py': '../problems/base_problems/tinyfeed_refactor/rename-feed-item-to-entry-task.txt',
    '../tests/tinyfeed_refactor/move-strip-html-to-sanitize-test.py': '../problems/base_problems/tinyfeed_refactor/move-strip-html-to-sanitize-task.txt',
}
