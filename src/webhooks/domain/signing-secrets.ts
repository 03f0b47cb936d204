/** A secret replaced by a rotation, still signing until `expiresAt`. */
export interface RetiringSecret {
  readonly sealed: string;
  readonly expiresAt: Date;
}

/**
 * An endpoint's signing secrets as stored, sealed: the current one and, after a
 * rotation, the one it replaced. Never more than two: a receiver switches from the
 * old secret to the new one, and verifies either in between.
 */
export interface SigningSecrets {
  readonly current: string;
  readonly previous: RetiringSecret | null;
}

/**
 * `replacement` becomes the current secret, and the current one signs beside it for
 * `overlapMs` more (not at all when 0). A previous secret still in its overlap is
 * dropped at once: the one being replaced is the one receivers were last given.
 */
export function rotateSecret(
  secrets: SigningSecrets,
  replacement: string,
  now: Date,
  overlapMs: number,
): SigningSecrets {
  const previous = overlapMs > 0 ? { sealed: secrets.current, expiresAt: new Date(now.getTime() + overlapMs) } : null;
  return { current: replacement, previous };
}

/** The secrets a message sent at `now` is signed with, newest first. */
export function secretsInUse(secrets: SigningSecrets, now: Date): string[] {
  const { current, previous } = secrets;
  return previous !== null && previous.expiresAt.getTime() > now.getTime() ? [current, previous.sealed] : [current];
}
