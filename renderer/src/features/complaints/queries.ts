import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { complaintReference, type ComplaintFields } from '../../../../shared/complaints/complaints.js';
import type { Complaint } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { localZone } from '../../ui/format.js';

/** The register's reads start with this key (complaints:list): a change here or in another console (cache:changed) reads them again. */
export const COMPLAINTS_KEY = 'complaints:list';

/** Records a new complaint, or changes one read at its version; says what it did. */
export function useSaveComplaint(onDone: (c: Complaint) => void) {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, editing }: { fields: ComplaintFields; editing: Complaint | null }) =>
      editing
        ? client.complaintsUpdate({ ...fields, id: editing.id, version: editing.version, timeZone: localZone() })
        : client.complaintsRecord({ ...fields, timeZone: localZone() }),
    onSuccess: (c, { editing }) => {
      void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === COMPLAINTS_KEY });
      notifications.show({
        color: 'teal',
        title: editing ? 'Complaint saved' : 'Complaint recorded',
        message: `${complaintReference(c.number)} ${editing ? 'saved' : 'is in the register'}${c.status === 'resolved' ? ', resolved' : ', open'}.`,
      });
      onDone(c);
    },
  });
}
