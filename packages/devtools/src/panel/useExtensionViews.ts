import { useEffect, useRef, useState } from 'react';
import type { DevtoolsBlock, DevtoolsView, DevtoolsViewChat, DevtoolsViewInput, DevtoolsViewModule } from '@chatwire/core/shared';

/** A contributed view once its loader settled: its module, or why it could not load. */
export interface LoadedView {
  readonly view: DevtoolsView;
  readonly module: DevtoolsViewModule | undefined;
  readonly error: string | undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

// One load per view object for the page: the panel mounts again on every open.
const loads = new WeakMap<DevtoolsView, Promise<LoadedView>>();

function loadView(view: DevtoolsView): Promise<LoadedView> {
  let loading = loads.get(view);
  if (!loading) {
    loading = Promise.resolve()
      .then(() => view.load())
      .then(
        (module): LoadedView => ({ view, module, error: undefined }),
        (error: unknown): LoadedView => ({ view, module: undefined, error: message(error) }),
      );
    loads.set(view, loading);
  }
  return loading;
}

/**
 * Loads the views the app contributed (`views` of the panel), in their order, once each. A view whose
 * loader fails keeps its tab, which says why.
 */
export function useExtensionViews(views: readonly DevtoolsView[] | undefined): readonly LoadedView[] {
  const [loaded, setLoaded] = useState<readonly LoadedView[]>([]);
  // Apps often pass a new array each render: the views are loaded again only when the list changes.
  const latest = useRef(views);
  latest.current = views;
  const key = (views ?? []).map((view) => view.id).join('\n');
  useEffect(() => {
    let cancelled = false;
    void Promise.all((latest.current ?? []).map(loadView)).then((settled) => {
      if (!cancelled) setLoaded(settled);
    });
    return () => {
      cancelled = true;
    };
  }, [key]);
  return loaded;
}

/** Whether a loaded view's tab shows for this chat (a view that failed shows, to say why). */
export function isViewAvailable(loaded: LoadedView, chat: DevtoolsViewChat): boolean {
  if (!loaded.module) return true;
  try {
    return loaded.module.available(chat);
  } catch {
    return true;
  }
}

/** A loaded view's blocks; a view that failed to load or to render says so instead of breaking the panel. */
export function viewBlocks(loaded: LoadedView, input: DevtoolsViewInput): readonly DevtoolsBlock[] {
  if (!loaded.module) return [{ type: 'empty', text: `The ${loaded.view.label} view could not load: ${loaded.error ?? 'no module'}` }];
  try {
    return loaded.module.render(input);
  } catch (error) {
    return [{ type: 'empty', text: `The ${loaded.view.label} view failed: ${message(error)}` }];
  }
}
