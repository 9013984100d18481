import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EventFilter } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';

/**
 * The event counts the Events and Webhook failures screens read: each kept while the next filter's
 * is read, so the numbers do not blink to nothing at every change.
 */

/** How many events match the filter, in all and by type. */
export function useEventsCount(filter: EventFilter) {
  const client = useClient();
  return useQuery({
    queryKey: ['events:count', filter],
    queryFn: () => client.eventsCount({ filter }),
    placeholderData: keepPreviousData,
  });
}

/** The events matching the filter, counted per day and type: the newest `days` days that have any. */
export function useEventsDays(filter: EventFilter, days: number) {
  const client = useClient();
  return useQuery({
    queryKey: ['events:days', filter, days],
    queryFn: () => client.eventsDays({ filter, days }),
    placeholderData: keepPreviousData,
  });
}
