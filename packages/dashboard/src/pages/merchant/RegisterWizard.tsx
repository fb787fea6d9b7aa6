// Setting up a cash register in three steps: the service (test mode has only the test register, live mode
// Webkassa or reKassa), its number and credentials, then the settings. The server checks the register
// with its service before it stores anything, so a refusal (wrong login, unknown number) is told here, in
// words, and the merchant fixes the step it concerns.
import { Button, Group, Radio, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { useWords } from '../../components/words.ts';
import { useMode } from '../../mode.tsx';
import { credentialsOf, RegisterCredentials, registerNumberLabel, type Driver } from './RegisterCredentials.tsx';
import { bodyOf, newSettings, RegisterSettings } from './RegisterSettings.tsx';

export function RegisterWizard({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const queries = useQueryClient();
  const drivers: Driver[] = mode === 'test' ? ['sandbox'] : ['webkassa', 'rekassa'];
  const [step, setStep] = useState(0);
  const [driver, setDriver] = useState<Driver>(drivers[0]);
  const [number, setNumber] = useState('');
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [settings, setSettings] = useState(() => newSettings(t('fiscal.itemNameDefault')));
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/me/fiscal/registers', {
          params: { query: { mode } },
          body: {
            driver,
            register_number: number.trim(),
            credentials: credentialsOf(driver, secrets),
            ...bodyOf(settings),
          },
        }),
      ),
    onSuccess: () => {
      // The secrets leave the page's memory with the dialog.
      setSecrets({});
      notify(t('fiscal.created'));
      void queries.invalidateQueries({ queryKey: ['fiscal-registers'] });
      onDone();
    },
  });
  // Each step is a form: the browser's own check of its required fields comes before the next step.
  const next = (e: FormEvent) => {
    e.preventDefault();
    if (step < 2) setStep(step + 1);
    else create.mutate();
  };
  const back = step > 0 && (
    <Button variant="default" onClick={() => setStep(step - 1)}>
      {t('common.back')}
    </Button>
  );
  return (
    <form onSubmit={next} data-testid="register-wizard">
      <Stepper active={step} size="xs" allowNextStepsSelect={false} onStepClick={setStep}>
        <Stepper.Step label={t('fiscal.stepDriver')}>
          <Radio.Group
            label={t('fiscal.driver')}
            description={t(mode === 'test' ? 'fiscal.testOnly' : 'fiscal.liveDrivers')}
            value={driver}
            onChange={(v) => {
              setDriver(v as Driver);
              setSecrets({});
            }}
          >
            <Stack gap="xs" mt="xs">
              {drivers.map((d) => (
                <Radio key={d} value={d} label={word('fiscal_driver', d)} />
              ))}
            </Stack>
          </Radio.Group>
        </Stepper.Step>
        <Stepper.Step label={t('fiscal.stepCredentials')}>
          <Stack gap="sm">
            <TextInput
              label={t(registerNumberLabel(driver))}
              required
              maxLength={64}
              autoComplete="off"
              value={number}
              onChange={(e) => setNumber(e.currentTarget.value)}
            />
            <RegisterCredentials driver={driver} values={secrets} onChange={setSecrets} />
            {driver !== 'sandbox' && (
              <Text size="sm" c="dimmed">
                {t('fiscal.secretsHint')}
              </Text>
            )}
          </Stack>
        </Stepper.Step>
        <Stepper.Step label={t('fiscal.stepSettings')}>
          <Stack gap="sm">
            <RegisterSettings value={settings} onChange={setSettings} />
            <Text size="sm" c="dimmed">
              {t('fiscal.liveCheckHint')}
            </Text>
            <ErrorAlert error={create.error} />
          </Stack>
        </Stepper.Step>
      </Stepper>
      <Group justify="flex-end" mt="md">
        {back}
        <Button type="submit" loading={create.isPending}>
          {step < 2 ? t('fiscal.next') : t('fiscal.setUp')}
        </Button>
      </Group>
    </form>
  );
}
