"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CsvDownload } from "@/components/charts/csv-download";

/** Counts by category (e.g. responses per day), with their CSV. */
export function CountBarChart({
  title,
  data,
  xLabel,
  yLabel,
  fileName,
  height = 180,
  color = "#2358c4",
}: {
  title: string;
  data: Array<{ x: string; y: number }>;
  xLabel: string;
  yLabel: string;
  fileName: string;
  height?: number;
  color?: string;
}) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">{title}</span>
        <CsvDownload fileName={fileName} header={[xLabel, yLabel]} rows={data.map((d) => [d.x, d.y])} />
      </figcaption>
      <div style={{ height }} data-chart={fileName}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="x" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis tick={{ fontSize: 11 }} width={40} allowDecimals={false} />
            <Tooltip formatter={(value) => [value as number, yLabel]} />
            <Bar dataKey="y" name={yLabel} fill={color} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
