import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { DESKTOP_ONLY_MESSAGE } from "@/lib/client/device";

/**
 * A study for desktops only, opened on a phone or tablet: what to do instead of the task. Shown by
 * the work page (user agent) and by the session (a finger-only pointer); `heading` is h1 where it
 * is the page's title.
 */
export function DesktopOnlyNotice({ slug, heading: Heading = "h2" }: { slug: string; heading?: "h1" | "h2" }) {
  return (
    <div className="mx-auto max-w-md py-10" data-testid="desktop-only">
      <div className="rounded-lg border border-amber-200 bg-amber-50 px-6 py-6 text-center" role="alert">
        <Heading className="text-lg font-semibold text-amber-950">Please use a computer for this study</Heading>
        <p className="mt-2 text-sm text-amber-900">{DESKTOP_ONLY_MESSAGE}</p>
        <Link href={`/s/${slug}`} className={buttonClass("secondary", "md", "mt-4")}>
          Back to the study page
        </Link>
      </div>
    </div>
  );
}
