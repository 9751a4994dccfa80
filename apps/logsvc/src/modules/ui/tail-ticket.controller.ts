import { type TailTicket, UI_TAIL_TICKET_PATH } from '@logsvc/api';
import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { TenantId } from '../../http/tenancy';
import { TAIL_TICKET_TTL_MS, TailTickets } from './tail-tickets';

/**
 * `POST /ui/api/tail/ticket`: a one-time ticket for the browser's tail socket, bound to the
 * header's tenant.
 */
@Controller()
export class TailTicketController {
  constructor(@Inject(TailTickets) private readonly tickets: TailTickets) {}

  @Post(UI_TAIL_TICKET_PATH)
  @HttpCode(200)
  issue(@TenantId() tenant: string): TailTicket {
    return { ticket: this.tickets.issue(tenant), expires_in: TAIL_TICKET_TTL_MS / 1000 };
  }
}
