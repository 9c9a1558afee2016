import Link from "next/link";
import type { ReviewItemRow, ReviewResults } from "@/lib/review/results";
import { keepRuleLabels, tieRuleLabels } from "@/lib/review/rules";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { OutcomeBadge, pct, VoteChip } from "@/components/review/outcome";
import { StatusToggle } from "@/components/review/status-toggle";

/** The sections of a review study's results page (app/(review)/review/[slug]/(staff)/results), top to bottom. */

export type ResultsOutcomeFilter = "all" | "PENDING" | "KEPT" | "EXCLUDED" | "CONTESTED" | "split";

const filters = [
  ["all", "all"],
  ["PENDING", "pending"],
  ["KEPT", "kept"],
  ["EXCLUDED", "excluded"],
  ["CONTESTED", "contested"],
  ["split", "split votes"],
] as const;

function axisLabels(results: ReviewResults): Map<string, string> {
  return new Map(results.study.axes.map((axis) => [axis.key, axis.label]));
}

function alphaText(alpha: { alpha: number | null; reason?: string }): string {
  return alpha.alpha === null ? "undefined" : alpha.alpha.toFixed(3);
}

/** An item's votes per axis and the reasons given: two cells of a row. */
function VotesAndReasons({ row, axisLabel }: { row: ReviewItemRow; axisLabel: Map<string, string> }) {
  return (
    <>
      <Td>
        <div className="flex gap-1">
          {row.votes.map((votes) => (
            <VoteChip key={votes.axis} votes={votes} label={axisLabel.get(votes.axis) ?? votes.axis} />
          ))}
        </div>
      </Td>
      <Td>
        <Reasons row={row} />
      </Td>
    </>
  );
}

function Reasons({ row }: { row: ReviewItemRow }) {
  const reasons = row.votes.flatMap((votes) => votes.verdicts.filter((v) => v.reason).map((v) => ({ axis: votes.axis, ...v })));
  if (reasons.length === 0) return <span className="text-slate-400">none</span>;
  return (
    <ul className="space-y-0.5 whitespace-normal text-xs">
      {reasons.slice(0, 3).map((r, i) => (
        <li key={i} className="max-w-md">
          <span className={`font-medium ${r.pass ? "text-emerald-700" : "text-red-700"}`}>
            {r.reviewer} {r.pass ? "passes" : "fails"} {r.axis}:
          </span>{" "}
          <span className="text-slate-700">{r.reason}</span>
        </li>
      ))}
      {reasons.length > 3 ? <li className="text-slate-400">and {reasons.length - 3} more</li> : null}
    </ul>
  );
}

/** Title, status, the reviewer's and the exports' links, and the rules. */
export function ResultsHeader({ results, slug, isReviewer }: { results: ReviewResults; slug: string; isReviewer: boolean }) {
  const { study } = results;
  return (
    <div>
      <Link href="/review" className="text-sm text-slate-500 hover:text-slate-800">
        ← Review
      </Link>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{study.title}</h1>
        <Badge tone={study.status === "OPEN" ? "green" : "slate"}>{study.status.toLowerCase()}</Badge>
        <span className="font-mono text-xs text-slate-500">{study.slug}</span>
        <span className="ml-auto flex flex-wrap items-center gap-2">
          {isReviewer && study.status === "OPEN" ? (
            <ButtonLink href={`/review/${slug}`} size="sm">
              Review items
            </ButtonLink>
          ) : null}
          <ButtonLink href={`/api/review/studies/${slug}/export?format=csv`} variant="secondary" size="sm">
            Verdicts CSV
          </ButtonLink>
          <ButtonLink href={`/api/review/studies/${slug}/export?format=jsonl`} variant="secondary" size="sm">
            JSONL
          </ButtonLink>
          <StatusToggle slug={slug} status={study.status} />
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {study.reviewersPerItem} reviewers per item · {keepRuleLabels[study.keepRule]} · {tieRuleLabels[study.tieRule]} · batches:{" "}
        {study.batches.map((b, i) => (
          <span key={`${b.study.slug}/${b.fileName}`}>
            {i > 0 ? ", " : ""}
            {b.fileName} <span className="text-slate-400">({b.study.title})</span>
          </span>
        ))}
      </p>
    </div>
  );
}

/** The study's counts in cards. */
export function ResultsCounts({ results }: { results: ReviewResults }) {
  const { study, counts } = results;
  const decided = counts.KEPT + counts.EXCLUDED + counts.CONTESTED;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6" data-testid="review-counts">
      {(
        [
          ["Items", counts.items, "text-slate-900", `${counts.reviews} reviews in`],
          ["Decided", decided, "text-slate-900", `${counts.PENDING} pending`],
          ["Kept", counts.KEPT, "text-emerald-700", pct(counts.keptRate)],
          ["Excluded", counts.EXCLUDED, "text-red-700", "from every study"],
          ["To settle", counts.contested, "text-amber-700", "split or tied votes"],
          ["Reviewers", results.reviewers.length, "text-slate-900", `${study.reviewersPerItem} per item`],
        ] as const
      ).map(([label, value, tone, note]) => (
        <Card key={label} className="px-4 py-3">
          <div className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</div>
          <div className={`mt-0.5 text-2xl font-semibold tabular-nums ${tone}`} data-count={label.toLowerCase()}>
            {value}
          </div>
          <div className="text-xs text-slate-500">{note}</div>
        </Card>
      ))}
    </div>
  );
}

/** Pass rates and agreement per axis. */
export function AxesCard({ results }: { results: ReviewResults }) {
  const { study, axes } = results;
  const axisLabel = axisLabels(results);
  return (
    <Card>
      <CardHeader
        title="Axes"
        description="Votes passing: share of all verdicts. Items passing: share of decided items that the rule passes on this axis. Krippendorff's alpha: items as units, reviewers as coders, pass/fail nominal; undefined when every vote agrees."
      />
      <Table>
        <thead>
          <tr>
            <Th>Axis</Th>
            <Th align="right">Votes passing</Th>
            <Th align="right">Items passing</Th>
            <Th align="right">Alpha (nominal)</Th>
            <Th align="right">Pairable items</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" data-testid="axis-table">
          {axes.map((axis) => (
            <tr key={axis.axis} data-axis={axis.axis}>
              <Td>
                <span className="font-medium text-slate-900">{axisLabel.get(axis.axis)}</span>
                <span className="ml-2 text-xs text-slate-500">{study.axes.find((a) => a.key === axis.axis)?.description}</span>
              </Td>
              <Td align="right" className="tabular-nums">
                {pct(axis.votePassRate)} <span className="text-xs text-slate-400">of {axis.votes}</span>
              </Td>
              <Td align="right" className="tabular-nums">
                {pct(axis.itemPassRate)} <span className="text-xs text-slate-400">of {axis.decidedItems}</span>
              </Td>
              <Td align="right" className="tabular-nums" data-alpha={axis.alpha.alpha ?? ""}>
                <span title={axis.alpha.reason}>{alphaText(axis.alpha)}</span>
              </Td>
              <Td align="right" className="tabular-nums">
                {axis.alpha.units}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}

/** Items whose reviewers split, waiting for a decision. */
export function ContestedQueue({ results, slug }: { results: ReviewResults; slug: string }) {
  const axisLabel = axisLabels(results);
  return (
    <Card>
      <CardHeader
        title={`Contested queue (${results.contested.length})`}
        description="Items whose reviewers split on some axis and that nobody has settled yet: ties first (no outcome until you decide), then items the majority decided. Your decision overrides the rule."
      />
      {results.contested.length === 0 ? (
        <CardBody>
          <p className="text-sm text-slate-500">Nothing to settle.</p>
        </CardBody>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th>Item</Th>
              <Th>The rule says</Th>
              <Th>Votes</Th>
              <Th>Reasons</Th>
              <Th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="contested-queue">
            {results.contested.map((row) => (
              <tr key={row.reviewItemId} className="align-top">
                <Td className="max-w-[14rem] truncate font-mono text-xs">
                  <span title={row.externalId}>{row.externalId}</span>
                </Td>
                <Td>
                  <OutcomeBadge outcome={row.ruleOutcome} />
                </Td>
                <VotesAndReasons row={row} axisLabel={axisLabel} />
                <Td align="right">
                  <ButtonLink href={`/review/${slug}/items/${row.reviewItemId}`} size="sm">
                    Settle
                  </ButtonLink>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

/** Every item with its votes, outcome and decision, filtered and paged. */
export function ItemsCard({ results, slug, query }: { results: ReviewResults; slug: string; query: { outcome: ResultsOutcomeFilter; page: number } }) {
  const { study } = results;
  const axisLabel = axisLabels(results);
  const base = `/review/${slug}/results`;
  const link = (next: { outcome?: string; page?: number }) => {
    const q = new URLSearchParams();
    const outcome = next.outcome ?? query.outcome;
    if (outcome !== "all") q.set("outcome", outcome);
    if ((next.page ?? 1) > 1) q.set("page", String(next.page));
    const text = q.toString();
    return `${text ? `${base}?${text}` : base}#items`;
  };
  const pages = Math.max(1, Math.ceil(results.items.total / results.items.pageSize));
  return (
    <Card>
      <CardHeader
        title="Items"
        description={`${results.items.total} item${results.items.total === 1 ? "" : "s"}${query.outcome === "all" ? "" : " match the filter"}. Votes per axis in order: ${study.axes.map((a) => a.label).join(", ")} (hover for reasons).`}
      />
      <div id="items" className="flex flex-wrap items-center gap-1.5 border-b border-slate-100 px-5 py-2 text-sm">
        <span className="mr-1 text-slate-500">Show:</span>
        {filters.map(([value, label]) => (
          <Link
            key={value}
            href={link({ outcome: value, page: 1 })}
            aria-current={query.outcome === value ? "true" : undefined}
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${query.outcome === value ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {label}
          </Link>
        ))}
      </div>
      {results.items.rows.length === 0 ? (
        <CardBody>
          <EmptyState title="No items match" />
        </CardBody>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th>Item</Th>
              <Th>Kind</Th>
              <Th align="right">Reviews</Th>
              <Th>Votes</Th>
              <Th>Reasons</Th>
              <Th>Outcome</Th>
              <Th>Decision</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="review-items">
            {results.items.rows.map((row) => (
              <tr key={row.reviewItemId} className="align-top hover:bg-slate-50" data-item={row.externalId} data-outcome={row.outcome}>
                <Td className="max-w-[14rem] truncate font-mono text-xs">
                  <Link href={`/review/${slug}/items/${row.reviewItemId}`} className="text-brand-700 hover:underline" title={row.externalId}>
                    {row.externalId}
                  </Link>
                </Td>
                <Td className="text-xs">{row.kind}</Td>
                <Td align="right" className="tabular-nums">
                  {row.reviews}/{study.reviewersPerItem}
                </Td>
                <VotesAndReasons row={row} axisLabel={axisLabel} />
                <Td>
                  <div className="flex items-center gap-1">
                    <OutcomeBadge outcome={row.outcome} />
                    {row.contested ? <span className="text-[11px] text-amber-700">split</span> : null}
                  </div>
                </Td>
                <Td className="whitespace-normal text-xs">
                  {row.decision ? (
                    <span title={row.decision.note}>
                      <span className="font-medium">{row.decision.decision === "KEEP" ? "kept" : "excluded"}</span> by {row.decision.by ?? "someone"}
                      <span className="block max-w-[14rem] truncate text-slate-500">{row.decision.note}</span>
                    </span>
                  ) : (
                    <span className="text-slate-400">–</span>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {pages > 1 ? (
        <div className="flex items-center justify-between border-t border-slate-100 px-5 py-2 text-sm">
          <span className="text-slate-500">
            Page {query.page} of {pages}
          </span>
          <span className="flex gap-2">
            {query.page > 1 ? (
              <Link href={link({ page: query.page - 1 })} className="text-brand-700 hover:underline">
                Previous
              </Link>
            ) : null}
            {query.page < pages ? (
              <Link href={link({ page: query.page + 1 })} className="text-brand-700 hover:underline">
                Next
              </Link>
            ) : null}
          </span>
        </div>
      ) : null}
    </Card>
  );
}

/** Counts and pass rates per tag value. */
export function ByTagCard({ results }: { results: ReviewResults }) {
  const { study } = results;
  if (results.byTag.length === 0) return null;
  return (
    <Card>
      <CardHeader title="By tag" description="Per tag value: the items, the share of decided items kept, and the share of passing votes on each axis." />
      <div className="space-y-4 p-4">
        {results.byTag.map((tag) => (
          <div key={tag.key} className="min-w-0 rounded-md border border-slate-200">
            <h3 className="border-b border-slate-100 bg-slate-50 px-3 py-1.5 text-sm font-semibold text-slate-800">
              {tag.key}
              {tag.omitted > 0 ? <span className="ml-2 text-xs font-normal text-slate-500">({tag.omitted} more values not shown)</span> : null}
            </h3>
            <Table>
              <thead>
                <tr>
                  <Th>Value</Th>
                  <Th align="right">Items</Th>
                  <Th align="right">Kept</Th>
                  {study.axes.map((axis) => (
                    <Th key={axis.key} align="right">
                      {axis.label}
                    </Th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {tag.values.map((value) => (
                  <tr key={value.value}>
                    <Td className="max-w-[10rem] truncate">{value.value}</Td>
                    <Td align="right" className="tabular-nums">
                      {value.counts.items}
                    </Td>
                    <Td align="right" className="tabular-nums">
                      {pct(value.counts.keptRate, 0)}
                    </Td>
                    {value.axes.map((axis) => (
                      <Td key={axis.axis} align="right" className="tabular-nums">
                        {pct(axis.votePassRate, 0)}
                      </Td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        ))}
      </div>
    </Card>
  );
}

/** The studies that hold these items, and what the exclusions touch there. */
export function AffectedStudiesCard({ results }: { results: ReviewResults }) {
  return (
    <Card>
      <CardHeader
        title="Where the outcomes apply"
        description="Studies that hold these items (same id and content). Excluded items get no new assignments there; responses already given stay, flagged on the dashboards."
      />
      {results.studies.length === 0 ? (
        <CardBody>
          <p className="text-sm text-slate-500">No study holds these items any more.</p>
        </CardBody>
      ) : (
        <Table>
          <thead>
            <tr>
              <Th>Study</Th>
              <Th align="right">Items</Th>
              <Th align="right">Excluded</Th>
              <Th align="right">Responses on excluded</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100" data-testid="affected-studies">
            {results.studies.map((row) => (
              <tr key={row.slug}>
                <Td>
                  <Link href={`/research/studies/${row.slug}`} className="text-brand-700 hover:underline">
                    {row.title}
                  </Link>
                </Td>
                <Td align="right" className="tabular-nums">
                  {row.items}
                </Td>
                <Td align="right" className="tabular-nums text-red-700">
                  {row.excluded}
                </Td>
                <Td align="right" className="tabular-nums">
                  {row.excludedResponses}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

/** The reviewers with their labels and work. */
export function ReviewersCard({ results }: { results: ReviewResults }) {
  return (
    <Card>
      <CardHeader title="Reviewers" description="R1, R2, ...: their order of joining; verdicts are exported under these labels." />
      <Table>
        <thead>
          <tr>
            <Th>Reviewer</Th>
            <Th align="right">Reviewed</Th>
            <Th align="right">Open</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {results.reviewers.map((reviewer) => (
            <tr key={reviewer.label}>
              <Td>
                <span className="font-semibold">{reviewer.label}</span> <span className="text-slate-500">{reviewer.name}</span>
              </Td>
              <Td align="right" className="tabular-nums">
                {reviewer.done}
              </Td>
              <Td align="right" className="tabular-nums">
                {reviewer.open}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
