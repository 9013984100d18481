import { isIPv6 } from 'node:net';

/**
 * The key that limits a client address: the address itself for IPv4, its /64 network for IPv6 (one
 * machine usually has a whole /64, so per-address keys would let it pick a new one per attempt).
 */
export function addressKey(address: string): string {
  const bare = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!isIPv6(bare)) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
