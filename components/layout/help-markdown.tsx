import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { helpLinkOf } from "@/config/help";

/** A doc of the repository rendered for the help pages: tables (GFM), headings with anchors, links to other docs kept inside /help. */
export function HelpMarkdown({ children }: { children: string }) {
  return (
    <div className="prose-instructions prose-help max-w-none text-sm text-slate-800" data-testid="help-doc">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href, children: text }) => {
            const target = typeof href === "string" ? helpLinkOf(href) : undefined;
            const external = target !== undefined && /^https?:/.test(target);
            return (
              <a href={target} {...(external ? { target: "_blank", rel: "noreferrer noopener" } : {})}>
                {text}
              </a>
            );
          },
          h2: ({ children: text }) => <h2 id={anchorOf(text)}>{text}</h2>,
          h3: ({ children: text }) => <h3 id={anchorOf(text)}>{text}</h3>,
          table: ({ children: rows }) => (
            <div className="my-3 overflow-x-auto rounded-md border border-slate-200">
              <table className="min-w-full text-xs">{rows}</table>
            </div>
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(text: React.ReactNode): string {
  const plain = flatten(text);
  return plain
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

function flatten(node: React.ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(flatten).join("");
  if (node && typeof node === "object" && "props" in node) return flatten((node as { props: { children?: React.ReactNode } }).props.children);
  return "";
}
