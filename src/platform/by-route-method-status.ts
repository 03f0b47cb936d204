/**
 * Values kept by a response's route template, method and status (a metric's
 * series, a log line's msg): looked up by the strings and number a request already
 * holds, each string's hash computed once, where a key made of all three would be a
 * new string to hash on every request. Bounded by the app's routes, Node's methods
 * and the status codes: callers key only by route templates, never by raw paths.
 */
export class ByRouteMethodStatus<T> {
  private readonly byRoute = new Map<string, Map<string, Map<number, T>>>();

  get(route: string, method: string, status: number): T | undefined {
    return this.byRoute.get(route)?.get(method)?.get(status);
  }

  set(route: string, method: string, status: number, value: T): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map<string, Map<number, T>>()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map<number, T>()));
    byStatus.set(status, value);
  }

  clear(): void {
    this.byRoute.clear();
  }
}
