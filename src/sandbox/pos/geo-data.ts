import type { CommuneRecord, DistrictRecord, GeoData, NewProvinceRecord, ProvinceRecord, WardRecord } from "./types.js";

// A realistic subset of Vietnam's address tree (pre-2025 provinces with districts and communes)
// plus the post-2025 list of 34 provinces and, for the provinces above, some of their post-2025
// wards and communes (two tiers, no district). Ids follow the live service's scheme: province
// "101", district = province + 2 digits, commune = district + 2 digits; new provinces "84_VN1xx".

type DistrictRow = [id: string, name: string, communes: string[]];
type ProvinceRow = [id: string, name: string, newId: string, districts: DistrictRow[]];

const oldProvinces: ProvinceRow[] = [
  ["101", "Hà Nội", "84_VN101", [
    ["10101", "Quận Ba Đình", ["Phường Phúc Xá", "Phường Trúc Bạch", "Phường Vĩnh Phúc", "Phường Cống Vị", "Phường Liễu Giai", "Phường Kim Mã"]],
    ["10103", "Quận Hoàn Kiếm", ["Phường Hàng Bạc", "Phường Hàng Bồ", "Phường Hàng Trống", "Phường Tràng Tiền", "Phường Lý Thái Tổ"]],
    ["10105", "Quận Đống Đa", ["Phường Láng Hạ", "Phường Ô Chợ Dừa", "Phường Khâm Thiên", "Phường Trung Liệt"]],
    ["10107", "Quận Hai Bà Trưng", ["Phường Minh Khai", "Phường Bạch Mai", "Phường Lê Đại Hành", "Phường Thanh Nhàn"]],
    ["10113", "Quận Cầu Giấy", ["Phường Dịch Vọng", "Phường Dịch Vọng Hậu", "Phường Mai Dịch", "Phường Nghĩa Đô", "Phường Quan Hoa", "Phường Yên Hòa"]],
  ]],
  ["701", "Hồ Chí Minh", "84_VN129", [
    ["70101", "Quận 1", ["Phường Bến Nghé", "Phường Bến Thành", "Phường Đa Kao", "Phường Cầu Ông Lãnh", "Phường Nguyễn Thái Bình"]],
    ["70103", "Quận 3", ["Phường Võ Thị Sáu", "Phường 4", "Phường 5", "Phường 9"]],
    ["70115", "Quận Bình Thạnh", ["Phường 1", "Phường 2", "Phường 25", "Phường 26"]],
    ["70117", "Quận Gò Vấp", ["Phường 1", "Phường 3", "Phường 5", "Phường 10"]],
    ["70119", "Quận Tân Bình", ["Phường 2", "Phường 4", "Phường 12", "Phường 15"]],
    ["70129", "Thành phố Thủ Đức", ["Phường Thảo Điền", "Phường An Phú", "Phường Linh Trung", "Phường Hiệp Bình Chánh"]],
  ]],
  ["501", "Đà Nẵng", "84_VN121", [
    ["50101", "Quận Hải Châu", ["Phường Hải Châu I", "Phường Thạch Thang", "Phường Thuận Phước", "Phường Hòa Cường Bắc"]],
    ["50103", "Quận Thanh Khê", ["Phường Tam Thuận", "Phường Thạc Gián", "Phường An Khê"]],
    ["50105", "Quận Sơn Trà", ["Phường An Hải Bắc", "Phường Mân Thái", "Phường Phước Mỹ"]],
    ["50107", "Quận Ngũ Hành Sơn", ["Phường Mỹ An", "Phường Khuê Mỹ", "Phường Hòa Hải"]],
  ]],
  ["103", "Hải Phòng", "84_VN118", [
    ["10301", "Quận Hồng Bàng", ["Phường Hoàng Văn Thụ", "Phường Minh Khai", "Phường Phan Bội Châu"]],
    ["10303", "Quận Lê Chân", ["Phường An Biên", "Phường Dư Hàng", "Phường Trại Cau"]],
    ["10305", "Quận Ngô Quyền", ["Phường Cầu Đất", "Phường Lạch Tray", "Phường Máy Tơ"]],
  ]],
  ["815", "Cần Thơ", "84_VN131", [
    ["81501", "Quận Ninh Kiều", ["Phường An Hòa", "Phường Cái Khế", "Phường Tân An", "Phường Xuân Khánh"]],
    ["81503", "Quận Bình Thủy", ["Phường An Thới", "Phường Bình Thủy", "Phường Trà Nóc"]],
    ["81505", "Quận Cái Răng", ["Phường Lê Bình", "Phường Hưng Phú", "Phường Ba Láng"]],
  ]],
  ["711", "Bình Dương", "84_VN129", [
    ["71101", "Thành phố Thủ Dầu Một", ["Phường Phú Cường", "Phường Hiệp Thành", "Phường Phú Hòa", "Phường Chánh Nghĩa"]],
    ["71103", "Thành phố Dĩ An", ["Phường Dĩ An", "Phường Đông Hòa", "Phường Tân Đông Hiệp"]],
    ["71105", "Thành phố Thuận An", ["Phường Lái Thiêu", "Phường An Phú", "Phường Bình Hòa"]],
  ]],
  ["713", "Đồng Nai", "84_VN130", [
    ["71301", "Thành phố Biên Hòa", ["Phường Tân Phong", "Phường Trảng Dài", "Phường Hố Nai", "Phường Quyết Thắng"]],
    ["71303", "Thành phố Long Khánh", ["Phường Xuân An", "Phường Xuân Bình", "Phường Xuân Trung"]],
    ["71305", "Huyện Nhơn Trạch", ["Xã Hiệp Phước", "Xã Long Tân", "Xã Phú Hội"]],
  ]],
  ["511", "Khánh Hòa", "84_VN125", [
    ["51101", "Thành phố Nha Trang", ["Phường Lộc Thọ", "Phường Tân Lập", "Phường Vĩnh Hải", "Phường Phước Long"]],
    ["51103", "Thành phố Cam Ranh", ["Phường Cam Nghĩa", "Phường Cam Lộc", "Phường Ba Ngòi"]],
    ["51105", "Huyện Diên Khánh", ["Thị trấn Diên Khánh", "Xã Diên An", "Xã Diên Phú"]],
  ]],
  ["411", "Thừa Thiên Huế", "84_VN102", [
    ["41101", "Thành phố Huế", ["Phường Phú Hội", "Phường Vĩnh Ninh", "Phường Thuận Thành", "Phường Tây Lộc"]],
    ["41103", "Thị xã Hương Thủy", ["Phường Phú Bài", "Phường Thủy Dương", "Phường Thủy Phương"]],
    ["41105", "Thị xã Hương Trà", ["Phường Tứ Hạ", "Phường Hương Văn", "Phường Hương Chữ"]],
  ]],
  ["403", "Nghệ An", "84_VN109", [
    ["40301", "Thành phố Vinh", ["Phường Hưng Bình", "Phường Lê Lợi", "Phường Quang Trung", "Phường Trường Thi"]],
    ["40303", "Thị xã Cửa Lò", ["Phường Nghi Hương", "Phường Nghi Thu", "Phường Thu Thủy"]],
    ["40305", "Huyện Diễn Châu", ["Thị trấn Diễn Châu", "Xã Diễn Kỷ", "Xã Diễn Thành"]],
  ]],
  ["717", "Bà Rịa-Vũng Tàu", "84_VN129", [
    ["71701", "Thành phố Vũng Tàu", ["Phường 1", "Phường Thắng Tam", "Phường Rạch Dừa"]],
    ["71705", "Huyện Châu Đức", ["Thị trấn Ngãi Giao", "Xã Bình Trung", "Xã Kim Long"]],
  ]],
  ["205", "Quảng Ninh", "84_VN107", [
    ["20501", "Thành phố Hạ Long", ["Phường Bãi Cháy", "Phường Hồng Gai", "Phường Bạch Đằng", "Phường Hùng Thắng"]],
    ["20503", "Thành phố Cẩm Phả", ["Phường Cẩm Trung", "Phường Cẩm Thủy", "Phường Quang Hanh"]],
  ]],
  ["703", "Lâm Đồng", "84_VN126", [
    ["70301", "Thành phố Đà Lạt", ["Phường 1", "Phường 2", "Phường 9", "Phường 10"]],
    ["70303", "Thành phố Bảo Lộc", ["Phường 1", "Phường Lộc Phát", "Phường B'Lao"]],
  ]],
];

// The 34 provinces and cities after the 2025 merger.
const newProvinceNames: [string, string][] = [
  ["84_VN101", "Thành phố Hà Nội"], ["84_VN102", "Thành phố Huế"], ["84_VN103", "Lai Châu"],
  ["84_VN104", "Điện Biên"], ["84_VN105", "Sơn La"], ["84_VN106", "Lạng Sơn"],
  ["84_VN107", "Quảng Ninh"], ["84_VN108", "Thanh Hóa"], ["84_VN109", "Nghệ An"],
  ["84_VN110", "Hà Tĩnh"], ["84_VN111", "Cao Bằng"], ["84_VN112", "Tuyên Quang"],
  ["84_VN113", "Lào Cai"], ["84_VN114", "Thái Nguyên"], ["84_VN115", "Phú Thọ"],
  ["84_VN116", "Bắc Ninh"], ["84_VN117", "Hưng Yên"], ["84_VN118", "Thành phố Hải Phòng"],
  ["84_VN119", "Ninh Bình"], ["84_VN120", "Quảng Trị"], ["84_VN121", "Thành phố Đà Nẵng"],
  ["84_VN122", "Quảng Ngãi"], ["84_VN123", "Gia Lai"], ["84_VN125", "Khánh Hòa"],
  ["84_VN126", "Lâm Đồng"], ["84_VN127", "Đắk Lắk"], ["84_VN129", "Thành phố Hồ Chí Minh"],
  ["84_VN130", "Đồng Nai"], ["84_VN131", "Thành phố Cần Thơ"], ["84_VN132", "Tây Ninh"],
  ["84_VN133", "Vĩnh Long"], ["84_VN134", "Đồng Tháp"], ["84_VN135", "Cà Mau"],
  ["84_VN136", "An Giang"],
];

// Real ward and commune names after the reform of 1 July 2025 (Phường Sài Gòn took in the old
// Bến Nghé, for one), a dozen and more for the two big cities, a few elsewhere. The live service's id scheme for
// them is not documented: here a ward is its province's new id + 3 digits.
const newWards: [newProvinceId: string, names: string[]][] = [
  ["84_VN129", [
    "Phường Sài Gòn", "Phường Tân Định", "Phường Bến Thành", "Phường Cầu Ông Lãnh", "Phường Bàn Cờ",
    "Phường Xuân Hòa", "Phường Nhiêu Lộc", "Phường Bình Thạnh", "Phường Gia Định", "Phường Gò Vấp",
    "Phường Tân Sơn Nhất", "Phường Tân Sơn Hòa", "Phường Tân Sơn Nhì", "Phường Phú Nhuận", "Phường Thủ Đức",
    "Phường An Khánh", "Phường Long Bình", "Phường Thủ Dầu Một", "Phường Dĩ An", "Phường Vũng Tàu",
  ]],
  ["84_VN101", [
    "Phường Hoàn Kiếm", "Phường Cửa Nam", "Phường Ba Đình", "Phường Ngọc Hà", "Phường Giảng Võ",
    "Phường Hai Bà Trưng", "Phường Bạch Mai", "Phường Đống Đa", "Phường Láng", "Phường Ô Chợ Dừa",
    "Phường Văn Miếu - Quốc Tử Giám", "Phường Cầu Giấy", "Phường Nghĩa Đô", "Phường Yên Hòa", "Phường Tây Hồ",
    "Phường Long Biên", "Phường Hà Đông", "Xã Đông Anh",
  ]],
  ["84_VN121", ["Phường Hải Châu", "Phường Hòa Cường", "Phường Thanh Khê", "Phường An Khê", "Phường An Hải", "Phường Sơn Trà", "Phường Ngũ Hành Sơn", "Phường Hội An"]],
  ["84_VN118", ["Phường Hồng Bàng", "Phường Lê Chân", "Phường Ngô Quyền", "Phường Gia Viên", "Phường An Biên", "Phường Hải An"]],
  ["84_VN131", ["Phường Ninh Kiều", "Phường Cái Khế", "Phường Tân An", "Phường An Bình", "Phường Bình Thủy", "Phường Cái Răng"]],
  ["84_VN130", ["Phường Biên Hòa", "Phường Trấn Biên", "Phường Tam Hiệp", "Phường Long Bình", "Phường Trảng Dài", "Phường Long Khánh", "Xã Nhơn Trạch"]],
  ["84_VN125", ["Phường Nha Trang", "Phường Bắc Nha Trang", "Phường Tây Nha Trang", "Phường Nam Nha Trang", "Phường Cam Ranh", "Xã Diên Khánh"]],
  ["84_VN102", ["Phường Thuận Hóa", "Phường Phú Xuân", "Phường Vỹ Dạ", "Phường An Cựu", "Phường Kim Long", "Phường Hương Thủy"]],
  ["84_VN109", ["Phường Trường Vinh", "Phường Thành Vinh", "Phường Vinh Hưng", "Phường Vinh Phú", "Phường Cửa Lò", "Xã Diễn Châu"]],
  ["84_VN107", ["Phường Hạ Long", "Phường Bãi Cháy", "Phường Hồng Gai", "Phường Cẩm Phả", "Phường Quang Hanh", "Đặc khu Vân Đồn"]],
  ["84_VN126", ["Phường Xuân Hương - Đà Lạt", "Phường Cam Ly - Đà Lạt", "Phường Lâm Viên - Đà Lạt", "Phường 1 Bảo Lộc", "Phường B'Lao", "Phường Phan Thiết"]],
];

const unitPrefix = /^(Thành phố|Thị xã|Thị trấn|Quận|Huyện|Phường|Xã|Đặc khu)\s+/;

/** Lower-case ASCII without the unit prefix, the way `name_en` reads ("ba dinh", "cong vi"). */
export function asciiName(name: string): string {
  const bare = /^(Quận|Phường) \d+$/.test(name) ? name : name.replace(unitPrefix, "");
  return bare
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase();
}

export function buildGeo(): GeoData {
  const provinces: ProvinceRecord[] = [];
  const districts: DistrictRecord[] = [];
  const communes: CommuneRecord[] = [];
  for (const [provinceId, provinceName, newId, districtRows] of oldProvinces) {
    provinces.push({ id: provinceId, name: provinceName, name_en: asciiName(provinceName), new_id: newId });
    for (const [districtId, districtName, communeNames] of districtRows) {
      districts.push({ id: districtId, name: districtName, name_en: asciiName(districtName), province_id: provinceId });
      communeNames.forEach((name, i) => {
        communes.push({
          id: districtId + String(i + 1).padStart(2, "0"),
          name,
          name_en: asciiName(name),
          new_id: null,
          district_id: districtId,
          province_id: provinceId,
          postcode: null,
        });
      });
    }
  }
  const newProvinces: NewProvinceRecord[] = newProvinceNames.map(([id, name]) => ({
    id,
    name,
    name_en: asciiName(name),
    is_new: true,
  }));
  // Two-tier communes answer with district_id null (reported by a public client replaying
  // production traces, /work/shared/reference/README.md).
  const wards: WardRecord[] = newWards.flatMap(([provinceId, names]) =>
    names.map((name, i) => ({
      id: provinceId + String(i + 1).padStart(3, "0"),
      name,
      name_en: asciiName(name),
      district_id: null,
      province_id: provinceId,
      postcode: null,
    })),
  );
  return { provinces, newProvinces, districts, communes, wards };
}
