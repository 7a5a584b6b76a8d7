import { appendMessage, buildConversation, buildMessage, customerSender, staffSender } from "./messages.js";
import { messageId, type PageSeedContext, touchCustomer } from "./seed-inbox.js";
import { HOSTILE } from "./text.js";
import { iso } from "./time.js";
import type { MessageRecord, PageCustomerRecord } from "./types.js";

/**
 * An attacker writing to the page: an inbox thread and a comment whose author name and texts
 * carry prompt injection, invisible and bidi characters, script markup and fake chat JSON.
 * Both are recent and unread so they show up first in every list.
 */
export function seedHostile(ctx: PageSeedContext): string[] {
  const { rng, page, now } = ctx;
  const psid = "6999999999999999001";
  const texts = [HOSTILE.lines, [HOSTILE.lines[2]!, HOSTILE.lines[1]!]];
  // Each thread begins with its first message, ten minutes apart up to now.
  const begun = texts.map((lines) => now - lines.length * 10 * 60_000);
  const customer: PageCustomerRecord = {
    id: rng.uuid(),
    customer_id: rng.uuid(),
    page_id: page.id,
    psid,
    name: HOSTILE.name,
    gender: null,
    birthday: null,
    lives_in: HOSTILE.lines[0]!,
    phone_numbers: [],
    // A page customer is created by their first message.
    inserted_at: iso(Math.min(...begun)),
    updated_at: iso(Math.min(...begun)),
    can_inbox: true,
    thread_id: `t_${psid}`,
  };
  ctx.out.customers.push(customer);
  const post = ctx.posts[ctx.posts.length - 1]!;
  const threads = [
    buildConversation({ id: `${page.id}_${psid}`, page, customer, type: "INBOX", at: begun[0]! }),
    buildConversation({
      id: `${post.id.split("_")[1]}_666000000001`,
      page,
      customer,
      type: "COMMENT",
      at: begun[1]!,
      postId: post.id,
    }),
  ];
  threads.forEach((conversation, t) => {
    const list: MessageRecord[] = [];
    ctx.out.messages[conversation.id] = list;
    ctx.out.conversations.push(conversation);
    ctx.out.begun[conversation.id] = begun[t]!;
    const lines = texts[t]!;
    lines.forEach((text, i) => {
      const at = now - (lines.length - i) * 10 * 60_000;
      if (i === 1) {
        const reply = buildMessage({
          id: t === 0 ? messageId(rng) : `${conversation.id}9`,
          conversation,
          from: staffSender(page, ctx.staff[0]!),
          text: "Dạ shop chào bạn ạ",
          at: at - 60_000,
          parentId: t === 0 ? null : conversation.id,
        });
        appendMessage(list, conversation, reply);
      }
      const message = buildMessage({
        id: t === 0 ? messageId(rng) : i === 0 ? conversation.id : `${conversation.id}${i}`,
        conversation,
        from: customerSender(conversation),
        text,
        at,
        parentId: t === 0 || i === 0 ? null : conversation.id,
      });
      appendMessage(list, conversation, message);
    });
    touchCustomer(customer, conversation);
  });
  return threads.map((c) => c.id);
}
