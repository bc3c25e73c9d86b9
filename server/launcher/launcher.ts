import type { LauncherItem } from '../../contract/services';
import type { Database } from '../db/database';
import { letsIn } from '../oauth/checks/check-allowed-groups';

/** Home's services to open: the active ones with a home page that let the person in, by name. */
export class Launcher {
  constructor(private readonly db: Database) {}

  async list(userId: string): Promise<LauncherItem[]> {
    const [user, services] = await Promise.all([
      this.db.selectFrom('users').select('groups').where('id', '=', userId).executeTakeFirst(),
      this.db.selectFrom('api_services').select(['id', 'name', 'icon_url', 'launch_url', 'allowed_groups']).where('is_active', '=', 1).where('launch_url', 'is not', null).execute(),
    ]);
    if (!user) return [];
    return services
      .filter((service) => letsIn(service, user))
      .map(({ id, name, icon_url, launch_url }) => ({ id, name, icon_url, launch_url: launch_url! }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
