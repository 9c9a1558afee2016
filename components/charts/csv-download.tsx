"use client";

import { csvRow } from "@/lib/exports/csv";

/**
 * A small "CSV" button that downloads the figures behind a chart or table: the rows are built in
 * the browser from the data already on the page.
 */
export function CsvDownload({ fileName, header, rows, label = "CSV" }: { fileName: string; header: string[]; rows: unknown[][]; label?: string }) {
  function download() {
    const text = csvRow(header) + rows.map((row) => csvRow(row)).join("");
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName.endsWith(".csv") ? fileName : `${fileName}.csv`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <button
      type="button"
      onClick={download}
      title={`Download ${fileName}.csv`}
      className="inline-flex h-7 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 text-xs font-medium text-slate-700 hover:bg-slate-50"
    >
      <span aria-hidden>↓</span> {label}
    </button>
  );
}
