import { requirePageRole } from "@/lib/auth/session";
import { getMemberStudy } from "@/lib/annotate/studies";
import { orPageError } from "@/lib/annotate/page-access";

/**
 * Every page of a study checks membership itself; this layout checks it once more before anything
 * streams, so that a non-member gets the 403 page with a 403 status (a check inside a Suspense
 * boundary, such as a page under loading.tsx, can only render the 403 page with status 200).
 */
export default async function StudyLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requirePageRole(`/s/${slug}`);
  await orPageError(getMemberStudy(slug, user.id));
  return children;
}
