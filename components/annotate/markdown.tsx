import ReactMarkdown from "react-markdown";

/** Study texts (consent, tutorial, instructions) as Markdown; pictures fit the column, links open in a new tab. */
export function StudyMarkdown({ children, className = "" }: { children: string; className?: string }) {
  return (
    <div className={`prose-instructions text-sm text-slate-800 ${className}`}>
      <ReactMarkdown
        components={{
          img: ({ src, alt }) => (
            // eslint-disable-next-line @next/next/no-img-element -- study pictures are served by /api/assets with their own caching
            <img src={typeof src === "string" ? src : undefined} alt={alt ?? ""} className="my-3 max-h-[50vh] max-w-full rounded-md border border-slate-200" />
          ),
          a: ({ href, children: text }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {text}
            </a>
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
