import { ScrollBox } from "@/components/ui/scroll-box";

// whole class names, so that Tailwind finds them in the source
const alignClass = { left: "text-left", right: "text-right", center: "text-center" } as const;

/** A table that scrolls sideways in its own box (with a visible cue) when it is wider than the page. */
export function Table({ children, className = "", label }: { children: React.ReactNode; className?: string; label?: string }) {
  return (
    <ScrollBox className={className} label={label}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">{children}</table>
    </ScrollBox>
  );
}

export function Th({ children, className = "", align = "left" }: { children?: React.ReactNode; className?: string; align?: "left" | "right" | "center" }) {
  return (
    <th
      scope="col"
      className={`whitespace-nowrap bg-slate-50 px-3 py-2 ${alignClass[align]} text-xs font-semibold uppercase tracking-wide text-slate-500 ${className}`}
    >
      {children}
    </th>
  );
}

/** A cell that does not wrap, unless `className` says how it wraps (`whitespace-normal`): both in one class list, CSS order would decide. */
export function Td({ children, className = "", align = "left" }: { children?: React.ReactNode; className?: string; align?: "left" | "right" | "center" }) {
  const wrap = /(^|\s)whitespace-/.test(className) ? "" : "whitespace-nowrap ";
  return <td className={`${wrap}px-3 py-2 ${alignClass[align]} text-slate-700 ${className}`}>{children}</td>;
}
