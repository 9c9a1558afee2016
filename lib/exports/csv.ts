/**
 * CSV encoding (RFC 4180): fields separated by commas, records by CRLF; a field is quoted when it
 * holds a comma, a double quote, CR or LF, or starts or ends with a space, and quotes inside are
 * doubled. Objects and arrays are written as JSON text; null and undefined as an empty field;
 * dates as ISO 8601.
 *
 * CSV injection (OWASP "CSV Injection"): a text that starts with = + - @, a tab or a carriage
 * return would be run as a formula by a spreadsheet (item ids, tags and answers come from
 * imported batches and annotators), so it is written with a leading single quote and always
 * quoted. A text that is a plain decimal number ("-1", "+2.5e3") cannot be a formula and is kept
 * as it is; numbers, booleans and dates never start with a formula character other than "-".
 * This is the one CSV encoder: every CSV export (study exports, review export, chart downloads)
 * goes through it.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** OWASP's CSV-injection guard for one text value: "'" before a formula-looking text. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number") text = Number.isFinite(value) ? String(value) : "";
  else if (typeof value === "boolean" || typeof value === "bigint") text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else text = JSON.stringify(value);
  if (typeof value === "string") {
    const defused = defuseFormula(text);
    if (defused !== text) return `"${defused.replace(/"/g, '""')}"`;
  }
  if (/[",\r\n]/.test(text) || /^\s|\s$/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Parses CSV text (RFC 4180) into rows of fields: for tests and for reading exports back. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      i++;
    } else if (ch === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (ch === "\r" || ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
