// The channel drivers a configuration selects (decisions 18): each channel's real driver where its
// settings are present, else the `log` driver.
import type { ChannelConfig } from '../config.ts';
import { botApiDriver } from './bot-api.ts';
import { logDriver, type LogLine } from './log.ts';
import { smsGatewayDriver } from './sms-gateway.ts';
import { smtpDriver } from './smtp.ts';
import type { Channel, ChannelDriver } from './types.ts';

export type ChannelDrivers = Record<Channel, ChannelDriver>;

export function channelDrivers(config: ChannelConfig, line: LogLine): ChannelDrivers {
  return {
    email: config.smtpUrl ? smtpDriver(config.smtpUrl, config.mailFrom) : logDriver('email', line),
    messenger: config.messenger
      ? botApiDriver(config.messenger.apiUrl, config.messenger.botToken)
      : logDriver('messenger', line),
    sms: config.smsUrl ? smsGatewayDriver(config.smsUrl) : logDriver('sms', line),
  };
}
