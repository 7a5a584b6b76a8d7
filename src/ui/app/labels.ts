/** Vietnamese names of the figures the tools return; an unknown field shows as it is. */
export const LABELS: Record<string, string> = {
  customer_inbox_count: "Tin nhắn của khách",
  customer_comment_count: "Bình luận của khách",
  page_inbox_count: "Tin nhắn trang gửi",
  page_comment_count: "Bình luận trang trả lời",
  new_inbox_count: "Hội thoại mới",
  new_customer_count: "Khách mới",
  inbox_interactive_count: "Hội thoại có tương tác",
  phone_number_count: "Số điện thoại",
  uniq_phone_number_count: "SĐT khác nhau",
  inbox: "Hội thoại tin nhắn",
  comment: "Hội thoại bình luận",
  total: "Tổng hội thoại",
  new_customer_replied: "Khách mới được trả lời",
  customer_engagement_new_inbox: "Hội thoại tin nhắn mới",
  net: "Dùng nhãn (ròng)",
  count: "Số lượng",
  messages: "Tin nhắn",
  conversations: "Hội thoại",
  order_count: "Đơn hàng",
  price: "Doanh thu",
  product_count: "Sản phẩm",
  spend: "Chi tiêu",
  purchases_conversion_value: "Doanh thu từ quảng cáo",
  purchases: "Lượt mua",
};

export const label = (field: string): string => LABELS[field] ?? field;
