/**
 * Each user's default view per table (docs/web.md "Saved views"): any view they may read — their
 * own or one the team shares — made the one their list opens with. Their choice alone: it
 * changes nothing of the view, so it needs no ownership and writes no audit entry.
 */
import type { EngineContext } from '../../resources/context.ts';
import { responsibleUser } from '../../resources/context.ts';
import { notFound, permissionDenied } from '../../resources/errors.ts';
import type { ResourceService } from '../../resources/service.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { mayReadResource } from '../../resources/visibility.ts';
import { clearDefaultView, setDefaultView } from './views.repository.ts';
import { SAVED_VIEWS_KIND } from './views.resource.ts';

export class SavedViewsService {
  private readonly views: ResourceService;

  constructor(services: ResourceServices) {
    this.views = services.get(SAVED_VIEWS_KIND);
  }

  /** The view becomes the reader's default of its table (replacing the one before); the view as they now read it. */
  async makeDefault(ctx: EngineContext, viewId: string): Promise<Record<string, unknown>> {
    const user = this.reader(ctx);
    const row = await this.views.findVisible(ctx.tx, ctx.actor.access, viewId);
    await setDefaultView(ctx.tx, ctx.actor.tenantId, user, String(row['resource']), row.id);
    return this.views.get(ctx, row.id);
  }

  /** The view is no longer the reader's default (404 when it was not). */
  async clearDefault(ctx: EngineContext, viewId: string): Promise<void> {
    this.reader(ctx);
    const row = await this.views.findVisible(ctx.tx, ctx.actor.access, viewId);
    if (!(await clearDefaultView(ctx.tx, row.id))) throw notFound('This view is not your default.');
  }

  private reader({ actor }: EngineContext): string {
    const user = responsibleUser(actor)?.id;
    if (!user || !mayReadResource(this.views.resource, actor.access)) throw permissionDenied();
    return user;
  }
}
