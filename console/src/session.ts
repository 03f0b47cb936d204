/**
 * The admin key the person signed in with: kept in sessionStorage (this tab only,
 * gone when it closes), sent in X-API-Key, never in a cookie, so nothing a browser
 * adds to a request on its own can act with it.
 */
const STORAGE_KEY = 'petstore.console.adminKey';

type Listener = (key: string | null) => void;
const listeners = new Set<Listener>();

export function currentKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function signIn(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
  for (const listener of listeners) listener(key);
}

/** Sign-out, and what any 401 of the API does: the key is forgotten at once. */
export function signOut(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener(null);
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
