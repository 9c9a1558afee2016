/**
 * Which part of the docs each staff page belongs to: a page's path -> a doc of docs/ (served
 * rendered at /help/<doc>) and, where one section answers the page, its anchor. Checked in order:
 * the first pattern that matches the path wins.
 */
export interface HelpTopic {
  doc: string;
  anchor?: string;
  /** what the link says */
  label: string;
}

const topics: Array<[RegExp, HelpTopic]> = [
  [/^\/research\/studies\/[^/]+\/dashboard/, { doc: "intervals", label: "How the dashboard's figures and intervals are computed" }],
  [/^\/research\/studies\/[^/]+\/annotators/, { doc: "intervals", label: "Agreement and per-annotator figures" }],
  [/^\/research\/studies\/[^/]+\/participants/, { doc: "assignment", label: "Participants, places and who gets which item" }],
  [/^\/research\/studies\/[^/]+\/agents/, { doc: "api", label: "Model agents and the API" }],
  [/^\/research\/studies\/[^/]+\/exports/, { doc: "exports", label: "What each export holds" }],
  [/^\/research\/studies\/[^/]+\/settings/, { doc: "assignment", label: "What the settings do" }],
  [/^\/research\/studies\/[^/]+\/(replay|items)/, { doc: "task-kinds", label: "Task kinds and their events" }],
  [/^\/research\/studies\/new/, { doc: "task-kinds", label: "Task kinds, and what a study needs" }],
  [/^\/research\/studies\/[^/]+/, { doc: "task-kinds", label: "Task kinds" }],
  [/^\/research\/(tokens|api)/, { doc: "api", label: "The API: tokens, OpenAPI and scripts" }],
  [/^\/admin\/import/, { doc: "task-kinds", label: "Batch formats of each benchmark" }],
  [/^\/admin\/users/, { doc: "readme", label: "Accounts and roles" }],
  [/^\/review/, { doc: "review", label: "Item verification" }],
  [/^\/research/, { doc: "readme", label: "Getting started" }],
];

export function helpTopicFor(pathname: string): HelpTopic | null {
  for (const [pattern, topic] of topics) if (pattern.test(pathname)) return topic;
  return null;
}

export function helpHrefOf(topic: HelpTopic): string {
  return `/help/${topic.doc}${topic.anchor ? `#${topic.anchor}` : ""}`;
}

/**
 * A link inside a doc, as the help pages serve it: another doc (`exports.md`, `docs/exports.md`,
 * `../README.md`, with an anchor or not) becomes its /help page; anything else stays as written.
 */
export function helpLinkOf(href: string): string {
  const match = /^(?:\.\/|\.\.\/)*(?:docs\/)?([A-Za-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
  if (!match) return href;
  const name = match[1].toLowerCase();
  return `/help/${name}${match[2] ?? ""}`;
}
