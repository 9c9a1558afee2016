import { requireLayoutUser } from "@/lib/auth/session";
import { SiteHeader } from "@/components/layout/site-header";
import { TrajectoryQueueProvider } from "@/components/annotate/queue-provider";

export default async function AnnotateLayout({ children }: { children: React.ReactNode }) {
  const user = await requireLayoutUser();
  return (
    <div className="min-h-screen">
      <SiteHeader user={user} />
      <main className="mx-auto max-w-[1400px] px-4 py-3 sm:px-6">
        <TrajectoryQueueProvider userId={user.id}>{children}</TrajectoryQueueProvider>
      </main>
    </div>
  );
}
