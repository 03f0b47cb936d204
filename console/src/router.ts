import { useEffect, useState } from 'preact/hooks';

/** Where the service serves the console: every page is a path below it (deep links serve index.html). */
export const BASE = '/console';

/** The console's own path (`/keys/42`) of the page shown. */
function currentPath(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path.replace(/\/+$/, '') || '/';
}

export function href(path: string): string {
  return `${BASE}${path}`;
}

export function navigate(path: string): void {
  window.history.pushState(null, '', href(path));
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The path shown, updated by links and the browser's back and forward. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

/** A link between the console's pages without reloading it (a modified click opens a tab as usual). */
export function onLinkClick(event: MouseEvent, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(path);
}
