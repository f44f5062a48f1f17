/**
 * An outer lock around every basket mutation (`serialized` in write.ts runs them one at a time
 * within a process). By default there is none: the real marketplace cannot lock other clients out.
 * Sandbox runs install a cross-process lock, so parallel `svc --sandbox cart …` runs take turns at
 * their read-then-replace of a basket and none undoes another.
 */
export type MutationLock = <T>(fn: () => Promise<T>) => Promise<T>;

let lock: MutationLock = (fn) => fn();

/** Installs the outer lock every later basket mutation runs inside (the sandbox's cross-process lock). */
export function setMutationLock(next: MutationLock): void {
  lock = next;
}

/** Runs `fn` inside the installed lock (at once when none is installed). */
export function withMutationLock<T>(fn: () => Promise<T>): Promise<T> {
  return lock(fn);
}
