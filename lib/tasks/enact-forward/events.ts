import { orderingEvents } from "@/lib/tasks/shared/enact/events";

/** The slot-filling events shared by the ENACT kinds. */
export const events = orderingEvents;
