import { Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import type { ConsentSortField, SavedView } from '../../../../shared/ipc/contract.js';
import { useSaveSettings, useSettings } from '../settings/settings.js';
import { useAppStatus } from '../status/app-status.js';
import { useCan } from '../status/can.js';
import { filterOf, viewFromSaved, type ConsentView } from './view.js';
import { ink } from '../../ui/ink.js';

/**
 * Named views (filters, sort, columns) the user saves and reopens; kept by main across restarts —
 * on a team server each person's own (issue 35), beside the views an admin shares with the team.
 */
export function SavedViews({ view, columns, onOpen }: { view: ConsentView; columns: ConsentSortField[]; onOpen(view: ConsentView): void }) {
  const settings = useSettings().data;
  const save = useSaveSettings();
  // Sharing a view with the team is an admin's (the channel's teamViews field).
  const can = useCan('settings:set', { input: { teamViews: [] } });
  const onTeam = useAppStatus().data?.host === 'team';
  const canShare = { allowed: can.allowed && onTeam };
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [forTeam, setForTeam] = useState(false);
  const views = settings?.savedViews ?? [];
  const team = settings?.teamViews ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean) return;
    const saved: SavedView = { name: clean, filter: filterOf(view), sort: view.sort, columns };
    const list = forTeam ? team : views;
    const next = [...list.filter((v) => v.name !== clean), saved];
    save.mutate(forTeam ? { teamViews: next } : { savedViews: next }, {
      onSuccess: () => {
        setNaming(false);
        setName('');
        setForTeam(false);
        notifications.show({ color: 'teal', message: forTeam ? `View “${clean}” shared with the team.` : `View “${clean}” saved.` });
      },
    });
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default">
            Views{views.length + team.length ? ` (${views.length + team.length})` : ''}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Your views</Menu.Label>
          {views.length === 0 ? <Menu.Item disabled>No saved views yet</Menu.Item> : null}
          {views.map((v) => (
            <Menu.Item key={v.name} onClick={() => onOpen(viewFromSaved(v))}>
              {v.name}
            </Menu.Item>
          ))}
          {team.length ? (
            <>
              <Menu.Label>Shared with the team</Menu.Label>
              {team.map((v) => (
                <Menu.Item key={`team:${v.name}`} onClick={() => onOpen(viewFromSaved(v))}>
                  {v.name}
                </Menu.Item>
              ))}
            </>
          ) : null}
          <Menu.Divider />
          <Menu.Item onClick={() => setNaming(true)}>Save current view…</Menu.Item>
          {views.length || (team.length && canShare.allowed) ? (
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
                {canShare.allowed
                  ? team.map((v) => (
                      <Menu.Item
                        key={`team:${v.name}`}
                        color="red"
                        onClick={() => save.mutate({ teamViews: team.filter((x) => x.name !== v.name) })}
                      >
                        Delete the team’s “{v.name}”
                      </Menu.Item>
                    ))
                  : null}
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
            {canShare.allowed ? (
              <Checkbox
                label="Share it with the whole team (recorded in the audit log)"
                checked={forTeam}
                onChange={(e) => setForTeam(e.currentTarget.checked)}
              />
            ) : null}
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
                {forTeam ? 'Share view' : 'Save view'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
