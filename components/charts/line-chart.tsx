"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CsvDownload } from "@/components/charts/csv-download";

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
}

/** Words of a category label in lines of about `width` characters (long labels such as "Enumerative Perception"). */
export function wrapLabel(label: string, width = 14): string[] {
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length > 0 ? lines : [label];
}

/** An x tick whose label wraps onto lines instead of being dropped for overlapping its neighbour. */
function WrappedTick({ x, y, payload }: { x?: number; y?: number; payload?: { value: string | number } }) {
  const lines = wrapLabel(String(payload?.value ?? ""));
  return (
    <text x={x} y={y} textAnchor="middle" fontSize={12} fill="#666" className="recharts-cartesian-axis-tick-value">
      {lines.map((line, i) => (
        <tspan key={i} x={x} dy={i === 0 ? 12 : 14}>
          {line}
        </tspan>
      ))}
    </text>
  );
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
  // few categories with words in their names: every label shown, wrapped (recharts would drop the ones that overlap)
  const wrapTicks = data.length <= 8 && data.some((row) => /\s/.test(String(row.x)));
  const tickLines = wrapTicks ? Math.max(...data.map((row) => wrapLabel(String(row.x)).length)) : 1;
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">{title}</span>
        <CsvDownload
          fileName={fileName}
          header={[xLabel, ...series.map((s) => s.label)]}
          rows={data.map((row) => [row.x, ...series.map((s) => row[s.key] ?? null)])}
        />
      </figcaption>
      <div style={{ height }} data-chart={fileName}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 4 }}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            {wrapTicks ? (
              <XAxis
                dataKey="x"
                tick={<WrappedTick />}
                interval={0}
                padding={{ left: 40, right: 40 }}
                height={30 + 14 * tickLines}
                label={{ value: xLabel, position: "insideBottom", offset: 0, fontSize: 12, fill: "#64748b" }}
              />
            ) : (
              <XAxis
                dataKey="x"
                tick={{ fontSize: 12 }}
                height={36}
                label={{ value: xLabel, position: "insideBottom", offset: 0, fontSize: 12, fill: "#64748b" }}
              />
            )}
            <YAxis domain={yDomain} tick={{ fontSize: 12 }} width={48} unit={unit} name={yLabel} />
            <Tooltip
              formatter={(value) => (typeof value === "number" ? `${value.toFixed(2)}${unit}` : String(value))}
              labelFormatter={(label) => `${xLabel} ${label}`}
            />
            <Legend wrapperStyle={{ fontSize: 12, lineHeight: "18px" }} verticalAlign="bottom" />
            {series.map((s) => (
              <Line
                key={s.key}
                type="linear"
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                strokeWidth={2}
                strokeDasharray={s.dashed ? "6 4" : undefined}
                dot={{ r: 3 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
