import type { Json } from "@/lib/tasks/types";

/**
 * Any kind's JSON (a reviewView or publicView) as something people can read: objects as labelled
 * rows, short lists as chips, lists of objects numbered, image URLs as images. This is how a new
 * benchmark gets a reviewer page before anyone writes a renderer for it (components/review/key-view.tsx).
 */

const imagePattern = /^(\/api\/(review\/)?assets\/[0-9a-f]{64}|https?:\/\/\S+\.(png|jpe?g|gif|webp|svg)(\?\S*)?|data:image\/[a-z+]+;base64,\S+)$/i;

export function isImageRef(value: unknown): value is string {
  return typeof value === "string" && imagePattern.test(value);
}

/** "modelPrompt" -> "model prompt", "answer_json" -> "answer json" */
export function humanKey(key: string): string {
  return key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

function isPrimitive(value: Json): value is string | number | boolean | null {
  return value === null || typeof value !== "object";
}

function Primitive({ value }: { value: string | number | boolean | null }) {
  if (value === null) return <span className="text-slate-400">none</span>;
  if (typeof value === "boolean") return <span className={`font-medium ${value ? "text-emerald-700" : "text-slate-600"}`}>{value ? "yes" : "no"}</span>;
  if (typeof value === "number") return <span className="font-mono tabular-nums">{value}</span>;
  if (imagePattern.test(value)) {
    const src: string = value;
    return (
      <a href={src} target="_blank" rel="noreferrer" className="inline-block" title="Open the image in a new tab">
        {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
        <img src={src} alt="" className="h-24 w-24 rounded border border-slate-200 bg-white object-contain" />
      </a>
    );
  }
  if (value.length > 80 || value.includes("\n")) return <span className="block whitespace-pre-wrap break-words text-[13px] leading-snug">{value}</span>;
  return <span className="break-words">{value}</span>;
}

export function JsonView({ value, depth = 0 }: { value: Json; depth?: number }) {
  if (isPrimitive(value)) return <Primitive value={value} />;
  if (depth > 6) return <code className="break-all text-xs text-slate-500">{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-400">empty</span>;
    if (value.every((entry) => isPrimitive(entry) && !isImageRef(entry) && String(entry).length <= 60)) {
      return (
        <ul className="flex flex-wrap gap-1">
          {value.map((entry, i) => (
            <li key={i} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
              {entry === null ? "none" : String(entry)}
            </li>
          ))}
        </ul>
      );
    }
    if (value.every(isImageRef)) {
      return (
        <ul className="flex flex-wrap gap-2">
          {value.map((entry, i) => (
            <li key={i} className="flex flex-col items-center gap-0.5 text-[11px] text-slate-500">
              <Primitive value={entry as string} />
              {i + 1}
            </li>
          ))}
        </ul>
      );
    }
    return (
      <ol className="space-y-1.5">
        {value.map((entry, i) => (
          <li key={i} className="flex gap-2">
            <span className="mt-0.5 grid h-5 min-w-5 shrink-0 place-items-center rounded-full bg-slate-200 px-1 text-[11px] font-semibold text-slate-700">
              {i + 1}
            </span>
            <div className="min-w-0 flex-1">
              <JsonView value={entry} depth={depth + 1} />
            </div>
          </li>
        ))}
      </ol>
    );
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return <span className="text-slate-400">empty</span>;
  return (
    <dl
      className={`grid grid-cols-[minmax(5rem,max-content)_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm ${depth > 0 ? "rounded border border-slate-100 bg-slate-50/60 p-2" : ""}`}
    >
      {entries.map(([key, inner]) => (
        <div key={key} className="contents">
          <dt className="pt-0.5 text-xs font-medium text-slate-500">{humanKey(key)}</dt>
          <dd className="min-w-0 text-slate-800">
            <JsonView value={inner} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
