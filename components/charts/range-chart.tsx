"use client";

import { Bar, CartesianGrid, ComposedChart, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import { CsvDownload } from "@/components/charts/csv-download";

export interface RangeRow {
  label: string;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  flagged?: boolean;
}

/** A label cut to `max` characters in its middle: labels of one study often share a start ("Prolific participant 5f8e…") and differ at their end. */
export function shorten(label: string, max: number): string {
  if (label.length <= max) return label;
  const keep = Math.max(2, max - 1);
  const head = Math.ceil(keep / 2);
  return `${label.slice(0, head)}…${label.slice(label.length - (keep - head))}`;
}

/**
 * A distribution per row as a horizontal box from q1 to q3 with a dot at the median (min and max
 * are in the CSV). Values in seconds.
 */
export function RangeChart({
  title,
  rows,
  unit = "s",
  fileName,
  xLabel,
}: {
  title: string;
  rows: RangeRow[];
  unit?: string;
  fileName: string;
  xLabel: string;
}) {
  const data = rows.map((r) => ({ label: r.flagged ? `${r.label} ⚑` : r.label, box: [r.q1, r.q3], median: r.median }));
  const height = 48 + rows.length * 34;
  // one line per label (a wrapped name would run into the next row): as wide as the longest, at most
  // 190 px, then cut in the middle by the formatter; the tick's own text box is left wide so that recharts never wraps it
  const labelWidth = Math.min(190, Math.max(60, ...data.map((d) => 14 + d.label.length * 7.2)));
  const maxChars = Math.floor((labelWidth - 14) / 7.2);
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">{title}</span>
        <CsvDownload
          fileName={fileName}
          header={["annotator", `min_${unit}`, `q1_${unit}`, `median_${unit}`, `q3_${unit}`, `max_${unit}`, "far_faster"]}
          rows={rows.map((r) => [r.label, r.min, r.q1, r.median, r.q3, r.max, r.flagged ?? false])}
        />
      </figcaption>
      <div style={{ height }} data-chart={fileName}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart layout="vertical" data={data} margin={{ top: 4, right: 16, bottom: 4, left: 8 }} barCategoryGap={6}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" horizontal={false} />
            <XAxis
              type="number"
              tick={{ fontSize: 12 }}
              unit={` ${unit}`}
              height={40}
              label={{ value: xLabel, position: "insideBottom", offset: 0, fontSize: 12, fill: "#64748b" }}
            />
            <YAxis
              type="category"
              dataKey="label"
              width={labelWidth}
              interval={0}
              tick={{ fontSize: 12, width: 1000 }}
              tickFormatter={(label: string) => shorten(label, maxChars)}
            />
            <Tooltip
              formatter={(value) =>
                Array.isArray(value)
                  ? `${(value[0] as number).toFixed(1)} – ${(value[1] as number).toFixed(1)} ${unit}`
                  : `${(value as number).toFixed(1)} ${unit}`
              }
            />
            <Bar dataKey="box" name="IQR" fill="#93c5fd" barSize={14} isAnimationActive={false} />
            <Scatter dataKey="median" name="median" fill="#1c469d" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
