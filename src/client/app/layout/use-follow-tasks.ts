import { useEffect } from 'react';
import { isOpenTask } from '../../../shared/api/export-task';
import { downloadCentreOpen, ensureFollowingTasks, resumeTasks, stopTasks, taskStore } from '../../lib/export-tasks';
import { setRevalidator } from '../../lib/live-changes';
import { useStore } from '../../lib/store';
import { useSWRConfig } from 'swr';

/** 下载中心's tasks: whether the centre is open and how many tasks are still under way. */
export function useFollowTasks() {
  const centreOpen = useStore(downloadCentreOpen);
  const openTasks = useStore(taskStore).tasks.filter(isOpenTask).length;
  // Once the first screen has had the network, the stream opens (a task still under way from before
  // sign-in or F5 is followed again, and others' changes are heard).
  useEffect(() => {
    const timer = setTimeout(() => {
      void resumeTasks();
      // The live console: detail pages and forms follow changes too, not only lists (which open the
      // stream at once). Not in a tab whose stream another took: that one waits until asked or shown.
      if (!taskStore.get().replaced) ensureFollowingTasks();
    }, 2_000);
    return () => {
      clearTimeout(timer);
      stopTasks();
    };
  }, []);
  useEffect(() => {
    if (centreOpen) ensureFollowingTasks();
  }, [centreOpen]);
  // The live console refetches through this layout's cache: the reads its changes made stale.
  const { mutate } = useSWRConfig();
  useEffect(() => {
    setRevalidator((stale) => {
      // A read that fails to refetch shows its own error where it is shown.
      void mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && (stale === 'all' || stale.has(key[0]))).catch(() => undefined);
    });
    return () => setRevalidator(null);
  }, [mutate]);
  return { centreOpen, openTasks };
}
