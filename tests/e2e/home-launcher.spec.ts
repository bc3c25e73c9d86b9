import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './global-setup';
import { createService, verifiedPerson } from './support/api';
import { checkScreen, signInToHome } from './support/ui';

test('Home lists the services a person may open, each a link to its home page', async ({ page }) => {
  const tag = Date.now().toString(36);
  const redirect_uris = ['https://apps.e2e.test/callback'];
  await createService(E2E_ADMIN, { name: `Grafana ${tag}`, redirect_uris, launch_url: `https://grafana-${tag}.home.lan/` });
  await createService(E2E_ADMIN, { name: `Family Photos ${tag}`, redirect_uris, launch_url: `https://photos-${tag}.home.lan/`, allowed_groups: ['family'] });
  const person = await verifiedPerson('launcher');
  await signInToHome(page, person);

  await expect(page.getByRole('heading', { name: 'Your Services' })).toBeVisible();
  const grafana = page.getByRole('link', { name: `Grafana ${tag}` });
  await expect(grafana).toHaveAttribute('href', `https://grafana-${tag}.home.lan/`);
  await expect(grafana).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: `Family Photos ${tag}` }), 'open only to the family group').toHaveCount(0);
  await checkScreen(page, 'home-launcher');
});
