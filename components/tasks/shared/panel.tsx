/** A titled column of a task layout; its body scrolls when the content is taller than the screen. */
export function TaskPanel({
  title,
  aside,
  className = "",
  bodyClassName = "",
  children,
  label,
}: {
  title: React.ReactNode;
  aside?: React.ReactNode;
  className?: string;
  bodyClassName?: string;
  children: React.ReactNode;
  label?: string;
}) {
  return (
    <section aria-label={label} className={`flex min-h-0 min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      <header className="flex items-baseline justify-between gap-2 border-b border-slate-100 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
        {aside ? <div className="text-xs text-slate-500">{aside}</div> : null}
      </header>
      <div className={`min-h-0 flex-1 overflow-y-auto p-2 ${bodyClassName}`}>{children}</div>
    </section>
  );
}

/** An image that opens large on click. */
export function ZoomableImage({
  src,
  alt,
  onZoom,
  className = "",
  style,
}: {
  src: string;
  alt: string;
  onZoom: () => void;
  className?: string;
  style?: React.CSSProperties;
}) {
  return (
    <button
      type="button"
      onClick={onZoom}
      aria-label={`${alt} (open large)`}
      style={style}
      className={`group relative block overflow-hidden rounded-md border border-slate-200 bg-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${className}`}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
      <img src={src} alt={alt} draggable={false} className="h-full w-full object-contain" />
      <span aria-hidden className="absolute bottom-1 right-1 hidden rounded bg-slate-900/70 px-1 text-[11px] text-white group-hover:block">
        ⤢ zoom
      </span>
    </button>
  );
}
