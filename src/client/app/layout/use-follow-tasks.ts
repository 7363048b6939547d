import { useEffect } from 'react';
import { isOpenTask } from '../../../shared/api/export-task';
import { downloadCentreOpen, ensureFollowingTasks, resumeTasks, stopTasks, taskStore } from '../../lib/export-tasks';
import { useStore } from '../../lib/store';

/** 下载中心's tasks: whether the centre is open and how many tasks are still under way. */
export function useFollowTasks() {
  const centreOpen = useStore(downloadCentreOpen);
  const openTasks = useStore(taskStore).tasks.filter(isOpenTask).length;
  // A task still under way from before sign-in (or F5) is followed again once the first screen has
  // had the network; otherwise the stream opens with the first export or the centre.
  useEffect(() => {
    const timer = setTimeout(() => void resumeTasks(), 2_000);
    return () => {
      clearTimeout(timer);
      stopTasks();
    };
  }, []);
  useEffect(() => {
    if (centreOpen) ensureFollowingTasks();
  }, [centreOpen]);
  return { centreOpen, openTasks };
}
