import Link from "next/link";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

/**
 * What a study with no items offers as its next step, by the viewer's role: an admin imports a
 * batch (the import page with this study chosen); a researcher cannot import, so the card names the
 * admins to ask, with a message that says which study, and what can be done meanwhile (settings,
 * the batch format).
 */
export function StudyNextStep({
  slug,
  title,
  role,
  admins,
  importHref,
}: {
  slug: string;
  title: string;
  role: "ADMIN" | "RESEARCHER";
  admins: Array<{ name: string; email: string }>;
  /** where the viewer imports a batch into this study: set for admins and the study's owner (lib/studies/managers.ts), null for anyone else */
  importHref: string | null;
}) {
  const formatLink = (
    <Link href="/help/task-kinds" className="text-brand-700 underline">
      the batch format of each task kind
    </Link>
  );
  if (importHref !== null) {
    return (
      <div data-testid="next-step" data-role={role}>
        <Card>
          <CardHeader
            title="Next step: import the items"
            description="This study has no items yet. Import items.jsonl with its images (a folder or a .zip); participants can work once there are items."
          />
          <CardBody className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
            <ButtonLink href={importHref}>Import a batch</ButtonLink>
            <span>
              See {formatLink}; from the command line:{" "}
              <code className="break-all rounded bg-slate-100 px-1 text-xs">npx yardstick import &lt;folder|zip&gt; --study {slug}</code>
            </span>
          </CardBody>
        </Card>
      </div>
    );
  }
  const subject = `Please import the items of the study "${title}" (${slug})`;
  const body = `Hello,\n\nthe study "${title}" (slug ${slug}) has no items yet. Could you import its batch (items.jsonl with its images)?\n\nThank you.`;
  return (
    <div data-testid="next-step" data-role="RESEARCHER">
      <Card>
        <CardHeader
          title="Next step: ask an admin to import the items"
          description="This study has no items yet, and only admins and the study's owner import batches. Send them the items.jsonl with its images; meanwhile you can set up consent, the tutorial and the rules."
        />
        <CardBody className="space-y-3 text-sm text-slate-600">
          {admins.length > 0 ? (
            <ul className="space-y-1" aria-label="Admins">
              {admins.map((admin) => (
                <li key={admin.email} className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                  <span className="font-medium text-slate-800">{admin.name}</span>
                  <a
                    className="break-all text-brand-700 underline"
                    href={`mailto:${admin.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`}
                  >
                    {admin.email}
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p>No admin account has an email address here: ask whoever runs this Yardstick to import the batch.</p>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <ButtonLink href={`/research/studies/${encodeURIComponent(slug)}/settings`} variant="secondary" size="sm">
              Set up the study meanwhile
            </ButtonLink>
            <span>Prepare the batch with {formatLink}.</span>
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
