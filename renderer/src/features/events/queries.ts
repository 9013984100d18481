import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EventFilter } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { localZone } from '../../ui/format.js';

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

/** The events matching the filter, counted per day (of the console's zone) and type: the newest `days` days that have any. */
export function useEventsDays(filter: EventFilter, days: number) {
  const client = useClient();
  const timeZone = localZone();
  return useQuery({
    queryKey: ['events:days', filter, days, timeZone],
    queryFn: () => client.eventsDays({ filter, days, timeZone }),
    placeholderData: keepPreviousData,
  });
}
