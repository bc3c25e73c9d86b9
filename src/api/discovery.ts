import { discoveryLinksSchema, type DiscoveryLinks } from '../../contract/oauth';

/** Home Guard's own discovery document: its addresses at PUBLIC_URL, whatever address the page was opened at. */
export async function loadDiscoveryLinks(): Promise<DiscoveryLinks> {
  const response = await fetch('/.well-known/openid-configuration');
  return discoveryLinksSchema.parse(await response.json());
}
