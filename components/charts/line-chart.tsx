"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CsvDownload } from "@/components/charts/csv-download";

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
}

/**
 * A metric against a category (e.g. TA against step length), one line per series, with the
 * values' CSV. `data` rows hold `x` and one number (or null) per series key.
 */
export function MetricLineChart({
  title,
  data,
  series,
  xLabel,
  yLabel,
  yDomain = [0, 100],
  fileName,
  height = 300,
  unit = "%",
}: {
  title: string;
  data: Array<Record<string, string | number | null>>;
  series: LineSeries[];
  xLabel: string;
  yLabel: string;
  yDomain?: [number, number];
  fileName: string;
  height?: number;
  unit?: string;
}) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">{title}</span>
        <CsvDownload fileName={fileName} header={[xLabel, ...series.map((s) => s.label)]} rows={data.map((row) => [row.x, ...series.map((s) => row[s.key] ?? null)])} />
      </figcaption>
      <div style={{ height }} data-chart={fileName}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 4 }}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            <XAxis dataKey="x" tick={{ fontSize: 12 }} height={36} label={{ value: xLabel, position: "insideBottom", offset: 0, fontSize: 12, fill: "#64748b" }} />
            <YAxis domain={yDomain} tick={{ fontSize: 12 }} width={48} unit={unit} name={yLabel} />
            <Tooltip formatter={(value) => (typeof value === "number" ? `${value.toFixed(2)}${unit}` : String(value))} labelFormatter={(label) => `${xLabel} ${label}`} />
            <Legend wrapperStyle={{ fontSize: 12, lineHeight: "18px" }} verticalAlign="bottom" />
            {series.map((s) => (
              <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={2} strokeDasharray={s.dashed ? "6 4" : undefined} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
