/**
 * Caps of an import file (issue 28.4): a row (the header first) of more than CSV_MAX_COLUMNS cells is refused with
 * `file: csv_too_many_columns`, a cell longer than CSV_MAX_CELL_LENGTH characters with `file: csv_cell_too_long`
 * (the error's params carry the size). A report echoes at most CSV_EXCERPT_LENGTH characters of a cell.
 */
export const CSV_MAX_COLUMNS = 100;
export const CSV_MAX_CELL_LENGTH = 1000;
export const CSV_EXCERPT_LENGTH = 80;
