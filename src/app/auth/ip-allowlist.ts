// API key IP allowlists: exact addresses or CIDR ranges, IPv4 and IPv6.
import ipaddr from 'ipaddr.js';

export function normalizeAddress(address: string): string {
  try {
    const parsed = ipaddr.process(address);
    return parsed.toString();
  } catch {
    return address;
  }
}

export function isValidAllowlistEntry(entry: string): boolean {
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}

export function isAddressAllowed(address: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  let client: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    client = ipaddr.process(address);
  } catch {
    return false;
  }
  for (const entry of allowlist) {
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        const normalizedRange = range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()
          ? (range as ipaddr.IPv6).toIPv4Address()
          : range;
        if (normalizedRange.kind() === client.kind() && client.match(normalizedRange, bits)) return true;
      } else if (ipaddr.process(entry).toString() === client.toString()) {
        return true;
      }
    } catch {
      // entries are validated on write; a bad one simply matches nothing
    }
  }
  return false;
}
