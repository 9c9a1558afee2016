"use client";

import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis, ZAxis } from "recharts";
import { CsvDownload } from "@/components/charts/csv-download";

export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  meanConfidence: number | null;
  accuracy: number | null;
}

/**
 * Reliability diagram: each confidence bin's accuracy against its mean confidence (dot size =
 * answers in the bin), with the diagonal of perfect calibration.
 */
export function ReliabilityDiagram({ bins, fileName, height = 260 }: { bins: ReliabilityBin[]; fileName: string; height?: number }) {
  const points = bins.filter((b) => b.count > 0).map((b) => ({ confidence: b.meanConfidence! * 100, accuracy: b.accuracy! * 100, count: b.count }));
  const diagonal = [
    { confidence: 0, diagonal: 0 },
    { confidence: 100, diagonal: 100 },
  ];
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">Reliability diagram</span>
        <CsvDownload
          fileName={fileName}
          header={["bin_lower", "bin_upper", "answers", "mean_confidence", "accuracy"]}
          rows={bins.map((b) => [b.lower, b.upper, b.count, b.meanConfidence, b.accuracy])}
        />
      </figcaption>
      <div style={{ height }} data-chart={fileName}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart margin={{ top: 8, right: 16, bottom: 18, left: 0 }}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="confidence"
              domain={[0, 100]}
              ticks={[0, 20, 40, 60, 80, 100]}
              unit="%"
              tick={{ fontSize: 12 }}
              label={{ value: "mean confidence", position: "insideBottom", offset: -10, fontSize: 12, fill: "#64748b" }}
            />
            <YAxis
              type="number"
              domain={[0, 100]}
              ticks={[0, 20, 40, 60, 80, 100]}
              unit="%"
              width={62}
              tick={{ fontSize: 12 }}
              label={{ value: "accuracy", angle: -90, position: "insideLeft", offset: 4, fontSize: 12, fill: "#64748b" }}
            />
            <ZAxis type="number" dataKey="count" range={[40, 400]} name="answers" />
            <Tooltip formatter={(value, name) => (name === "answers" ? value : `${(value as number).toFixed(1)}%`)} />
            <Line
              data={diagonal}
              dataKey="diagonal"
              name="perfect calibration"
              stroke="#94a3b8"
              strokeDasharray="4 4"
              dot={false}
              isAnimationActive={false}
              legendType="none"
            />
            <Scatter data={points} dataKey="accuracy" name="accuracy" fill="#0072B2" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
