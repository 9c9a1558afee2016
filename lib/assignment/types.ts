import type { AssignmentPurpose, AssignmentStatus, ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";

export interface StudyState {
  status: StudyStatus;
  overlap: number;
  /** Study.taskSettings: each kind's settings (probe families read their spacing from it) */
  taskSettings: unknown;
  practicePassMark: number | null;
  goldRate: number;
  itemsPerParticipant: number | null;
  sessionTimeLimitSeconds: number | null;
  leaseSeconds: number;
  firstItemLeaseSeconds: number;
  balanceTag: string | null;
  conditions: string[];
  /** the participant is a model agent (User.isAgent): lib/assignment/agents.ts */
  isAgent: boolean;
  isMember: boolean;
  memberStatus: ParticipantStatus | null;
  statusReason: string | null;
  memberStarted: boolean;
  sessionOver: boolean;
  hasProbes: boolean;
  practiceTotal: number;
  /** the participant's place in the order members joined (the Latin square's list is this mod the number of conditions) */
  participantIndex: number;
  /** changes when batches are imported or deleted (the in-memory item list is reloaded) */
  itemsVersion: string;
  /** the participant's assignments in the study (any status) */
  mine: MineRow[];
}

/** One of the participant's assignments, with what the rules need (read with the study's state). */
export interface MineRow {
  id: string;
  itemId: string;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  position: number;
  condition: string | null;
  gold: boolean;
  /** the item's Study.balanceTag value ("" when absent) */
  balance: string;
  correct: boolean | null;
  /** the lease has less than half its length left (or has passed): serving it renews it */
  renewDue: boolean;
}

/**
 * Ordinary items (x condition) the participant could be given now, best first per
 * (condition, balance value) group: fewer than k places held, not had by them, not excluded by
 * review. `available` is the number of distinct items among them (for the progress bar).
 */
export interface Candidate {
  itemId: string;
  condition: string | null;
  balance: string;
  rank: number;
  /** in the participant's Latin-square list for its condition (always, without conditions and for probes) */
  preferred: boolean;
  hash: string;
  expired: boolean;
  base: string | null;
  available: number;
  /** probe candidates: every condition of the item with room (the claim takes the participant's least-used) */
  conditions?: Array<string | null>;
}
