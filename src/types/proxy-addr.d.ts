/** The part of proxy-addr (a dependency of Express, no published types) the service uses: its README's `compile`. */
declare module 'proxy-addr' {
  /** A trust function: whether the proxy at `address`, `hop` hops from the server, is trusted. */
  type Trust = (address: string, hop: number) => boolean;

  interface ProxyAddr {
    /** Addresses, subnets (CIDR or netmask) and the names `loopback`, `linklocal`, `uniquelocal`, compiled once. */
    compile(val: string | readonly string[]): Trust;
  }

  const proxyaddr: ProxyAddr;
  export default proxyaddr;
}
