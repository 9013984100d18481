import { Button, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import type { ConsentSortField, SavedView } from '../../../../shared/ipc/contract.js';
import { useSaveSettings, useSettings } from '../settings/settings.js';
import { filterOf, viewFromSaved, type ConsentView } from './view.js';
import { ink } from '../../ui/ink.js';

/** Named views (filters, sort, columns) the user saves and reopens; kept by main across restarts. */
export function SavedViews({ view, columns, onOpen }: { view: ConsentView; columns: ConsentSortField[]; onOpen(view: ConsentView): void }) {
  const settings = useSettings().data;
  const save = useSaveSettings();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const views = settings?.savedViews ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) return;
    const saved: SavedView = { name: clean, filter: filterOf(view), sort: view.sort, columns };
    save.mutate(
      { savedViews: [...views.filter((v) => v.name !== clean), saved] },
      {
        onSuccess: () => {
          setNaming(false);
          setName('');
          notifications.show({ color: 'teal', message: `View “${clean}” saved.` });
        },
      },
    );
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default">
            Views{views.length ? ` (${views.length})` : ''}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Saved views</Menu.Label>
          {views.length === 0 ? <Menu.Item disabled>No saved views yet</Menu.Item> : null}
          {views.map((v) => (
            <Menu.Item key={v.name} onClick={() => onOpen(viewFromSaved(v))}>
              {v.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setNaming(true)}>Save current view…</Menu.Item>
          {views.length ? (
            <Menu.Sub>
              <Menu.Sub.Target>
                <Menu.Sub.Item>Delete a view</Menu.Sub.Item>
              </Menu.Sub.Target>
              <Menu.Sub.Dropdown>
                {views.map((v) => (
                  <Menu.Item key={v.name} color="red" onClick={() => save.mutate({ savedViews: views.filter((x) => x.name !== v.name) })}>
                    Delete “{v.name}”
                  </Menu.Item>
                ))}
              </Menu.Sub.Dropdown>
            </Menu.Sub>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={naming} onClose={() => setNaming(false)} title="Save this view" size="sm">
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              Keeps the search, filters, sort and columns under a name. A view with the same name is replaced.
            </Text>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={80} data-autofocus required />
            {save.error ? (
              <Text size="sm" c={ink('red')}>
                {save.error.message}
              </Text>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setNaming(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!name.trim()}>
                Save view
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
